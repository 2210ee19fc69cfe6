"""Django's tasks framework, from Django itself when it has it (6.0) or from the backport.

Every task of the project is declared with this ``task`` and enqueued through it, so moving
to Django 6 changes this file only: django-tasks-db reads ``django.tasks`` there too.
"""

try:
    from django.tasks import Task, TaskContext, task, task_backends
except ImportError:  # Django 5.2: the django-tasks backport
    from django_tasks import TaskContext, task, task_backends
    from django_tasks.base import Task

__all__ = ["Task", "TaskContext", "task", "task_backends"]
