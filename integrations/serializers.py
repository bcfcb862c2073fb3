"""The webhooks' request and answer shapes (API v1)."""

from __future__ import annotations

from rest_framework import serializers

from integrations.models import Webhook, WebhookDelivery


class WebhookCreateSerializer(serializers.Serializer):
    tournament = serializers.SlugField(max_length=80, allow_null=True, required=False, default=None,
                                       help_text="The tournament's slug; null: every tournament (administrators).")
    url = serializers.URLField(max_length=500)
    events = serializers.ListField(child=serializers.ChoiceField(choices=Webhook.Event.choices), min_length=1,
                                   max_length=len(Webhook.Event.choices))
    allow_private = serializers.BooleanField(default=False, help_text="Administrators only: allow a private "
                                             "or loopback address.")


class WebhookUpdateSerializer(serializers.Serializer):
    active = serializers.BooleanField(required=False)
    events = serializers.ListField(child=serializers.ChoiceField(choices=Webhook.Event.choices), min_length=1,
                                   max_length=len(Webhook.Event.choices), required=False)


class WebhookSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Webhook
        fields = ["id", "tournament", "url", "events", "active", "allow_private", "created_at"]
        read_only_fields = fields


class WebhookCreatedSerializer(WebhookSerializer):
    """A webhook as registered: with its secret, shown this once (and on the webhook's page to its managers)."""

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]
        read_only_fields = fields


class DeliverySerializer(serializers.ModelSerializer):
    event = serializers.CharField(read_only=True, help_text="One of the webhooks' events.")

    class Meta:
        model = WebhookDelivery
        fields = ["id", "webhook", "event", "event_id", "seq", "status", "attempts", "next_attempt_at",
                  "last_attempt_at", "last_status_code", "last_answer", "delivered_at", "created_at", "body"]
        read_only_fields = fields
