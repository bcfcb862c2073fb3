"""Webhooks' API: register, list, change, delete; the delivery log; send a delivery again."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import IsAuthenticatedReadWrite
from arbitration.serializers import ErrorBodySerializer
from integrations import services, tasks
from integrations.models import Webhook, WebhookDelivery
from integrations.serializers import (
    DeliverySerializer,
    WebhookCreatedSerializer,
    WebhookCreateSerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
)
from tournaments.models import Tournament
from tournaments.services.errors import TournamentNotFound


def _error(code: int, description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorBodySerializer, description=description)


ERRORS = {400: _error(400, "validation_error"), 401: _error(401, "not_authenticated"),
          403: _error(403, "permission_denied"), 404: _error(404, "webhook_not_found, delivery_not_found")}


def _webhook(request: Request, pk: int) -> Webhook:
    """Returns a webhook the user may see (else 404: others' webhooks are not said to exist)."""
    webhook = services.webhooks_visible(request.user).filter(pk=pk).select_related("tournament").first()
    if webhook is None:
        raise services.WebhookNotFound()
    return webhook


class WebhooksView(APIView):
    """The webhooks the user manages (his tournaments'; all for an administrator); registers one."""

    permission_classes = [IsAuthenticatedReadWrite]

    @extend_schema(summary="The webhooks you manage", responses={200: WebhookSerializer(many=True),
                                                                 401: ERRORS[401]})
    def get(self, request: Request) -> Response:
        hooks = services.webhooks_visible(request.user).select_related("tournament").order_by("id")
        return Response(WebhookSerializer(hooks, many=True).data)

    @extend_schema(summary="Register a webhook (a director of the tournament, or an administrator)",
                   request=WebhookCreateSerializer,
                   responses={201: WebhookCreatedSerializer, **{c: ERRORS[c] for c in (400, 401, 403, 404)}})
    def post(self, request: Request) -> Response:
        serializer = WebhookCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        tournament = None
        if data["tournament"] is not None:
            tournament = Tournament.objects.filter(slug=data["tournament"]).first()
            if tournament is None:
                raise TournamentNotFound()
        webhook = services.webhook_create(acting_user=request.user, tournament=tournament, url=data["url"],
                                          events=data["events"], allow_private=data["allow_private"])
        return Response(WebhookCreatedSerializer(webhook).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    """One webhook: shown, turned on or off, its events changed, deleted."""

    permission_classes = [IsAuthenticatedReadWrite]

    @extend_schema(summary="A webhook, with its secret", responses={200: WebhookCreatedSerializer,
                                                                   **{c: ERRORS[c] for c in (401, 404)}})
    def get(self, request: Request, pk: int) -> Response:
        return Response(WebhookCreatedSerializer(_webhook(request, pk)).data)

    @extend_schema(summary="Turn a webhook on or off, or change its events", request=WebhookUpdateSerializer,
                   responses={200: WebhookSerializer, **{c: ERRORS[c] for c in (400, 401, 403, 404)}})
    def patch(self, request: Request, pk: int) -> Response:
        _webhook(request, pk)
        serializer = WebhookUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        webhook = services.webhook_update(acting_user=request.user, webhook_id=pk, **serializer.validated_data)
        return Response(WebhookSerializer(webhook).data)

    @extend_schema(summary="Delete a webhook and its delivery log", responses={204: None, **{
        c: ERRORS[c] for c in (401, 403, 404)}})
    def delete(self, request: Request, pk: int) -> Response:
        _webhook(request, pk)
        services.webhook_delete(acting_user=request.user, webhook_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveriesView(ListAPIView):
    """A webhook's delivery log, newest first: status, attempts, the last answer."""

    permission_classes = [IsAuthenticatedReadWrite]
    serializer_class = DeliverySerializer

    @extend_schema(summary="A webhook's delivery log, newest first")
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):  # noqa: ANN201
        if getattr(self, "swagger_fake_view", False):  # the schema's generation
            return WebhookDelivery.objects.none()
        webhook = _webhook(self.request, self.kwargs["pk"])
        return WebhookDelivery.objects.filter(webhook=webhook).order_by("-id")


class DeliveryResendView(APIView):
    """Sends a delivery again (the same body and idempotency id), after those before it in its stream."""

    permission_classes = [IsAuthenticatedReadWrite]

    @extend_schema(summary="Send a delivery again", request=None,
                   responses={202: DeliverySerializer, **{c: ERRORS[c] for c in (401, 403, 404)}})
    def post(self, request: Request, pk: int) -> Response:
        if not services.webhooks_visible(request.user).filter(deliveries__pk=pk).exists():
            raise services.DeliveryNotFound()
        with transaction.atomic():
            delivery = services.delivery_resend(acting_user=request.user, delivery_id=pk)
            transaction.on_commit(lambda: tasks.stream_send.delay(delivery.stream_id))
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
