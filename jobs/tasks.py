"""Django's tasks framework, from Django itself when it has it (6.0) or from the backport.

Every task of the project is declared with this ``task`` and enqueued through it, so moving
to Django 6 changes this file only: django-tasks-db reads ``django.tasks`` there too.
"""

try:
    from django.tasks import Task, task
except ImportError:  # Django 5.2: the django-tasks backport
    from django_tasks import task
    from django_tasks.base import Task

__all__ = ["Task", "task"]
