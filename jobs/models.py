"""What an official sees of a background job: its status, progress, error and file.

django-tasks keeps the queue (a task row per run); this model is the job's own record, kept
apart because a job outlives its runs: a worker killed mid-job leaves its task RUNNING for
ever (django-tasks issue #46), so the job is put in a new run under a new ``token``, and
only the run holding the current token may report progress or finish it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    # What the job makes, for the app that defines it: "printouts:score-sheets".
    kind = models.CharField(_("kind"), max_length=60)
    # Whose pages list it, e.g. "event-12": this app knows nothing of events.
    scope = models.CharField(_("scope"), max_length=60)
    # Which one of its kind within the scope, e.g. "round-3": a newer finished job of the
    # same scope, kind and key replaces an older one.
    key = models.CharField(_("key"), max_length=120, blank=True)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # A digest of the data the result was built from: the result is reused until it changes.
    fingerprint = models.CharField(_("fingerprint"), max_length=64, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # The task that runs it (its module path), so a lost run can be enqueued again.
    task_path = models.CharField(_("task"), max_length=200)
    token = models.CharField(_("run token"), max_length=32)
    task_id = models.CharField(_("task id"), max_length=64, blank=True)
    done = models.PositiveIntegerField(_("done"), default=0)
    total = models.PositiveIntegerField(_("total"), default=0)
    error = models.TextField(_("error"), blank=True)
    # What a job without a file hands back, e.g. an import's counts and first errors.
    result = models.JSONField(_("result"), null=True, blank=True)
    file_name = models.CharField(_("file in storage"), max_length=255, blank=True)
    download_name = models.CharField(_("download name"), max_length=200, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    heartbeat_at = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["scope", "kind", "key"], name="jobs_job_lookup")]
        verbose_name = _("job")
        verbose_name_plural = _("jobs")

    def __str__(self) -> str:
        return f"{self.kind} {self.scope} {self.key} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)


class Worker(models.Model):
    """A background worker's heartbeat: each ``jobs_worker`` writes its row every few
    seconds while it runs, so every process (the pages, other workers) can tell whether
    one is there to build what is queued."""

    name = models.CharField(_("name"), max_length=64, unique=True)
    host = models.CharField(_("host"), max_length=255, blank=True)
    pid = models.PositiveIntegerField(_("process id"), default=0)
    started_at = models.DateTimeField(_("started at"))
    seen_at = models.DateTimeField(_("last seen"), db_index=True)

    class Meta:
        ordering = ["-seen_at"]
        verbose_name = _("worker")
        verbose_name_plural = _("workers")

    def __str__(self) -> str:
        return f"{self.name} on {self.host} ({self.pid})"
