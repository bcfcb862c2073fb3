"""The arbitration log: every move and ruling of a game, append-only and hash-chained."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core import sqlrows


class AppendOnlyError(RuntimeError):
    """Raised when code tries to change or delete an arbitration log entry."""


class LogEntryQuerySet(models.QuerySet):
    def update(self, **kwargs):  # noqa: ANN003
        raise AppendOnlyError("the arbitration log is append-only: add a correction entry instead")

    def delete(self):
        raise AppendOnlyError("the arbitration log is append-only: add a correction entry instead")


class LogEntry(models.Model):
    """One entry of a game's arbitration log.

    Entries are numbered per game (``seq`` from 1) and chained: ``prev_hash`` is the ``hash`` of
    the entry before (64 zeros for the first) and ``hash`` is the HMAC-SHA256, under the record key
    named by ``key_id``, of this entry's content with ``prev_hash`` (see ``arbitration.log``,
    ``core.chain``). Nothing is updated or deleted; a correction
    is a new entry whose ``supersedes`` names the entry it corrects, with the reason in ``note``.
    """

    class Kind(models.TextChoices):
        GAME_CREATED = "game_created", "Game created"
        MOVE = "move", "Move"
        FALSE_MOVE = "false_move", "False or improper move (Law 21)"
        TOUCH_OFFENCE = "touch_offence", "Touch without intimation (Law 18)"
        TOUCHED_PIECE_NOT_PLAYED = "touched_piece_not_played", "Touched piece not played (Law 19)"
        OVER_THE_ANGLE = "over_the_angle", "Piece moved over the angle (Law 20)"
        OWN_PIECE_REMOVED = "own_piece_removed", "Own piece removed while capturing (Law 12)"
        NOT_CROWNED = "not_crowned", "Not crowned, play went on (Law 15)"
        HUFF = "huff", "Huff (Laws 16-17)"
        COMPEL = "compel", "Capture compelled (Laws 16-17)"
        LET_STAND = "let_stand", "Failure to capture let stand (Laws 16-17)"
        CONDUCT = "conduct", "Conduct (Law 29)"
        LEFT_ROOM = "left_room", "Left the room (Law 30)"
        SPECTATOR = "spectator", "Spectator interfering (Law 31)"
        FORTY_MOVE_NOTICE = "forty_move_notice", "40-move notice (Law 22)"
        FORTY_MOVE_RULING = "forty_move_ruling", "40-move ruling (Law 22)"
        REPETITION_CLAIM = "repetition_claim", "Repetition claim"
        DRAW_AGREED = "draw_agreed", "Draw agreed"
        RESIGN = "resign", "Resignation"
        ADJUDICATE = "adjudicate", "Adjudication"
        APPEAL = "appeal", "Appeal (Law 28)"
        APPEAL_DECISION = "appeal_decision", "Appeal decision (Law 28)"
        CORRECTION = "correction", "Correction"
        GAME_END = "game_end", "Game ended"
        CLOCK_START = "clock_start", "Clock started (Laws 24-25)"
        CLOCK_PAUSE = "clock_pause", "Clocks paused (Law 28)"
        CLOCK_RESUME = "clock_resume", "Clocks resumed"
        CLOCK_ADJUST = "clock_adjust", "Clock adjusted"
        TIME_CALL = "time_call", "Time called (Law 25)"
        SYSTEM = "system", "System note"
        REFEREES_CHANGED = "referees_changed", "Referees changed"
        RESULT_CONFIRMED = "result_confirmed", "Result confirmed by a player"

    # No index of its own: the unique (game, seq) and the (game, kind) indexes lead with the game.
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="log_entries", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32, choices=Kind.choices)
    side = models.CharField(max_length=5, blank=True, help_text="black, white, or empty.")
    law = models.CharField(max_length=8, blank=True, help_text="The law applied, e.g. 22.")
    note = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Who acted; empty when the system acted by itself.",
    )
    created_at = models.DateTimeField()
    ply = models.PositiveIntegerField(help_text="Plies on the line of play after this entry.")
    fen = models.CharField(max_length=200, help_text="The position after this entry.")
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by",
        db_index=False,  # almost always empty: indexed only where set (logentry_supersedes)
    )
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    key_id = models.CharField(
        max_length=8, blank=True, default="",
        help_text="The id of the record key the hash is an HMAC under (core.chain); empty: plain SHA-256, before keys.",
    )

    objects = LogEntryQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="logentry_unique_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="logentry_seq_positive"),
        ]
        indexes = [
            models.Index(fields=["game", "kind"], name="logentry_game_kind"),
            models.Index(fields=["supersedes"], name="logentry_supersedes", condition=models.Q(supersedes__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def save(self, *args, pk_later: bool = False, **kwargs):  # noqa: ANN002, ANN003
        """Inserts the entry; refuses to update one that exists (the log is append-only).

        With ``pk_later`` inside ``sqlrows.pipeline`` the insert does not wait: the id is set
        when the pipeline ends.
        """
        if self.pk is not None or not self._state.adding:
            raise AppendOnlyError("the arbitration log is append-only: add a correction entry instead")
        if args or kwargs:
            kwargs["force_insert"] = True
            super().save(*args, **kwargs)
        else:
            sqlrows.row_insert(self, pk_later=pk_later)  # the move path's insert, without the query compiler

    def delete(self, *args, **kwargs):  # noqa: ANN002, ANN003
        raise AppendOnlyError("the arbitration log is append-only: add a correction entry instead")


class GameClock(models.Model):
    """A game's clocks: the control and the state, with the next deadline as a column.

    ``state`` is ``arbitration.timecontrol.ClockState`` as JSON; ``deadline`` and
    ``deadline_kind`` are derived from it and written with it, so the sweeper finds due clocks
    with one indexed query. Written only with the game row locked (``arbitration.clocks``).
    """

    class DeadlineKind(models.TextChoices):
        TIME_CALL = "time_call", "Time is called"
        LOSS = "loss", "Loss by delay"

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True, related_name="clock")
    control = models.JSONField(help_text="The time control (arbitration.timecontrol.ClockControl).")
    state = models.JSONField(default=dict, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    deadline_kind = models.CharField(max_length=16, choices=DeadlineKind.choices, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["deadline"], name="gameclock_due", condition=models.Q(deadline__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"clock of game {self.game_id}"
