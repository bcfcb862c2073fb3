"""API representations of players and tournaments."""

from rest_framework import serializers

from tournaments.models import Player, Tournament


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "federation", "federation_id", "rating"]

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError("A player needs a name.")
        return value


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "format", "rule_set", "venue", "start_date", "end_date", "status"]
        read_only_fields = fields
