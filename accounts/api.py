"""API for the signed-in user's own account."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken
from accounts.roles import IsAuthenticatedReadWrite, user_roles
from accounts.services import token_create, token_days_bounds, token_revoke


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


class ApiTokenSerializer(serializers.ModelSerializer):
    """One of the caller's tokens, without its key (only its first characters)."""

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created", "expires", "last_used"]
        read_only_fields = fields


class ApiTokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="What the token is for.")
    days = serializers.IntegerField(
        required=False, min_value=1, help_text="Lifetime in days (default API_TOKEN_DAYS, at most API_TOKEN_MAX_DAYS).",
    )

    def validate_days(self, value: int) -> int:
        maximum = token_days_bounds()[1]
        if value > maximum:
            raise serializers.ValidationError(f"A token lives at most {maximum} days.")
        return value


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    key = serializers.CharField(help_text="The key: shown this once, never again (only its digest is kept).")

    class Meta(ApiTokenSerializer.Meta):
        fields = [*ApiTokenSerializer.Meta.fields, "key"]
        read_only_fields = fields


TOKEN_MAKES_NO_TOKEN = ("A token cannot make a token: sign in with your password (the page /accounts/tokens/, or "
                        "this request with the session of a signed-in browser) to make one.")


class MyTokensView(APIView):
    """The caller's own API tokens: list them, or make a new one (its key is answered once).

    A new token is made only for a caller signed in with his password, never for one that presents
    a token: a token that could make tokens renews itself, so its expiry would not bound a stolen
    one, and the tokens it made would outlive its revocation (docs/security.md, "A token makes no
    token"). Listing and revoking with a token stay allowed (a program revokes its own token).
    """

    permission_classes = [IsAuthenticatedReadWrite]

    @extend_schema(responses=ApiTokenSerializer(many=True))
    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.filter(user=request.user)
        return Response(ApiTokenSerializer(tokens, many=True).data)

    @extend_schema(request=ApiTokenCreateSerializer, responses={201: ApiTokenCreatedSerializer},
                   description="Only a caller signed in with his password (a session) may make a token: a request "
                               "authenticated by a token is refused 403, so that a token never makes another that "
                               "outlives it (or survives its revocation).")
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            raise exceptions.PermissionDenied(TOKEN_MAKES_NO_TOKEN)
        serializer = ApiTokenCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, key = token_create(user=request.user, **serializer.validated_data)
        token.key = key
        return Response(ApiTokenCreatedSerializer(token).data, status=status.HTTP_201_CREATED)


class MyTokenDetailView(APIView):
    """Revokes (deletes) one of the caller's own tokens; another user's is 404."""

    permission_classes = [IsAuthenticatedReadWrite]

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        token_revoke(user=request.user, token_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
