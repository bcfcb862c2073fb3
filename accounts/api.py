"""API for the signed-in user's own account."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import IsAuthenticatedReadWrite, user_roles


class MeView(APIView):
    """Tells who the caller is and which roles they hold."""

    permission_classes = [IsAuthenticatedReadWrite]

    @extend_schema(
        responses=inline_serializer(
            "Me",
            {"username": serializers.CharField(), "roles": serializers.ListField(child=serializers.CharField())},
        )
    )
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.username, "roles": sorted(user_roles(request.user))})
