"""API representations of games."""

from rest_framework import serializers

from games.models import Game


class GameSerializer(serializers.ModelSerializer):
    black = serializers.PrimaryKeyRelatedField(read_only=True)
    white = serializers.PrimaryKeyRelatedField(read_only=True)
    referees = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = Game
        fields = ["id", "black", "white", "rule_set", "start_fen", "status", "result", "referees", "round"]
        read_only_fields = fields
