"""The clubs API's bodies: a club, a club's player, the writes of its keepers."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from accounts.privacy import fields_hidden
from clubs.models import Club, ClubLog
from core.limits import MAX_ID, NOTE_MAX_LENGTH, USERNAME_MAX_LENGTH
from core.text import no_control_characters
from players.models import Player


class UsernameField(serializers.SlugRelatedField):
    """A user named by username; a text no username can be (too long, a NUL byte) is refused before the query."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and (len(data) > USERNAME_MAX_LENGTH or "\x00" in data):
            self.fail("does_not_exist", slug_name=self.slug_field, value=data[:USERNAME_MAX_LENGTH])
        return super().to_internal_value(data)


def _hide_names(serializer: serializers.Serializer, data: dict[str, Any], *names: str) -> dict[str, Any]:
    """The usernames under ``names`` hidden from the public (``accounts.privacy.fields_hidden``)."""
    return fields_hidden(serializer.context.get("request"), data, *names)


class ClubSerializer(serializers.ModelSerializer):
    """A club as everyone reads it (its secretary's username to signed-in callers only), and as a director
    registers it or a keeper changes it."""

    secretary = UsernameField(slug_field="username", queryset=get_user_model().objects.all(), required=False,
                              allow_null=True, help_text="The user who keeps the club's players (username); chosen "
                                                         "by an administrator or the director who registered the club.")
    member_count = serializers.IntegerField(read_only=True, help_text="How many players belong to the club.")

    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "contact", "secretary", "member_count", "created_at"]
        read_only_fields = ["id", "member_count", "created_at"]

    def to_representation(self, instance: Club) -> dict[str, Any]:
        data = super().to_representation(instance)
        if not hasattr(instance, "member_count"):
            data["member_count"] = instance.members.count()
        return _hide_names(self, data, "secretary")

    def validate_name(self, value: str) -> str:
        no_control_characters(value)
        if not value.strip():
            raise serializers.ValidationError("A club needs a name.")
        return value

    def validate_short_name(self, value: str) -> str:
        no_control_characters(value)
        return value

    def validate_contact(self, value: str) -> str:
        no_control_characters(value)
        return value


class ClubPlayerSerializer(serializers.ModelSerializer):
    """A player of a club, as the club's page and API list him."""

    class Meta:
        model = Player
        fields = ["id", "name", "federation", "federation_id", "rating", "federation_rating"]
        read_only_fields = fields


class ClubPlayerAddSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The player's id.")


class ClubPlayerUpdateSerializer(serializers.Serializer):
    """What a keeper of the club changes of one of its players."""

    name = serializers.CharField(max_length=120, required=False, validators=[no_control_characters])
    federation = serializers.CharField(max_length=60, required=False, allow_blank=True,
                                       validators=[no_control_characters])
    federation_id = serializers.CharField(max_length=40, required=False, allow_blank=True,
                                          validators=[no_control_characters])


class ClubPlayerRemoveSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default="")


class ClubLogSerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    player = serializers.SerializerMethodField()
    changes = serializers.DictField(help_text='{field: {"before", "after"}}')

    class Meta:
        model = ClubLog
        fields = ["kind", "actor", "player", "changes", "reason", "created_at"]
        read_only_fields = fields

    def get_player(self, row: ClubLog) -> dict[str, Any] | None:
        return {"id": row.player_id, "name": row.player.name} if row.player_id else None

    def to_representation(self, instance: ClubLog) -> dict[str, Any]:
        data = _hide_names(self, super().to_representation(instance), "actor")
        secretary = data.get("changes", {}).get("secretary")
        if isinstance(secretary, dict):  # the secretary's username before and after (``clubs.services._value``)
            data["changes"] = {**data["changes"], "secretary": _hide_names(self, dict(secretary), "before", "after")}
        return data


class RatingListImportSerializer(serializers.Serializer):
    federation = serializers.CharField(max_length=60, validators=[no_control_characters],
                                       help_text="The federation whose list it is, as the players' federation (ACF).")
    csv = serializers.CharField(trim_whitespace=False, help_text="CSV text: a header line naming id, name, rating "
                                "and (if given) games; at most DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB.")
    dry_run = serializers.BooleanField(required=False, default=False,
                                       help_text="Check the list and say what it would do (any director).")
    create_missing = serializers.BooleanField(required=False, default=False,
                                              help_text="Register the players the list has and the registry lacks.")


class RatingListReportSerializer(serializers.Serializer):
    """What a list did (or would do): rows updated, seeded by name, created, unchanged, ambiguous, unmatched."""

    federation = serializers.CharField()
    dry_run = serializers.BooleanField()
    updated = serializers.ListField(child=serializers.DictField())
    seeded = serializers.ListField(child=serializers.DictField())
    created = serializers.ListField(child=serializers.DictField())
    unchanged = serializers.ListField(child=serializers.DictField())
    ambiguous = serializers.ListField(child=serializers.DictField())
    unmatched = serializers.ListField(child=serializers.DictField())
