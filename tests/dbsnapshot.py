"""Data built once per test session, written back into each test that asks for it.

Building a realistic tournament (the demo: seating, dealt and scored games) costs far more
than inserting its rows. A :class:`Snapshot` runs a builder once in a transaction that is
rolled back, keeps the rows it made (the app's models and the accounts), and writes them back
into a test's own transaction with ``bulk_create``: new primary keys, every foreign key
mapped to them, permissions and content types found again by their natural keys. A test
therefore gets the same data as if it had run the builder itself, and nothing of it is visible
to a test that did not ask for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction

T = TypeVar("T")

# tables that migrations fill (found again by natural key, never copied)
BY_NATURAL_KEY: tuple[type[models.Model], ...] = (Permission, ContentType)


def snapshot_models() -> list[type[models.Model]]:
    """The accounts (with their permissions) and every model of the app, each after the
    models it points to."""
    user = get_user_model()
    wanted: list[type[models.Model]] = [
        user,
        user._meta.get_field("user_permissions").remote_field.through,  # type: ignore[union-attr]
        *apps.get_app_config("binokel_tournament").get_models(),
    ]
    ordered: list[type[models.Model]] = []

    def visit(model: type[models.Model]) -> None:
        if model in ordered:
            return
        for f in model._meta.concrete_fields:
            target = f.related_model
            if f.is_relation and target in wanted and target is not model:
                visit(target)  # type: ignore[arg-type]
        ordered.append(model)

    for model in wanted:
        visit(model)
    return ordered


@dataclass(frozen=True)
class Handle:
    """Where an object the builder returned lives in the snapshot."""

    model: type[models.Model]
    pk: Any


def _handles(value: Any) -> Any:
    if isinstance(value, models.Model):
        return Handle(type(value), value.pk)
    if isinstance(value, dict):
        return {k: _handles(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return type(value)(_handles(v) for v in value)
    return value


@dataclass
class Snapshot(Generic[T]):
    rows: list[tuple[type[models.Model], list[dict[str, Any]]]]
    natural_keys: dict[tuple[type[models.Model], Any], tuple[Any, ...]]
    result: Any

    @classmethod
    def build(cls, make: Callable[[], T]) -> Snapshot[T]:
        """Run ``make`` in a transaction that is rolled back and keep what it wrote. The
        database must hold no data of the app's models yet (none is left between tests)."""
        with transaction.atomic():
            for model in snapshot_models():
                assert not model._base_manager.exists(), f"{model.__name__} is not empty"
            made = make()
            rows: list[tuple[type[models.Model], list[dict[str, Any]]]] = []
            natural: dict[tuple[type[models.Model], Any], tuple[Any, ...]] = {}
            for model in snapshot_models():
                fields = model._meta.concrete_fields
                found = [
                    {f.attname: getattr(obj, f.attname) for f in fields}
                    for obj in model._base_manager.order_by("pk")
                ]
                for f in fields:
                    if f.is_relation and f.related_model in BY_NATURAL_KEY:
                        target: Any = f.related_model
                        for row in found:
                            pk = row[f.attname]
                            if pk is not None and (target, pk) not in natural:
                                key = target._base_manager.get(pk=pk).natural_key()
                                natural[(target, pk)] = key
                rows.append((model, found))
            transaction.set_rollback(True)
        return cls(rows, natural, _handles(made))

    def restore(self) -> T:
        """Write the rows into the current database transaction; returns what the builder
        returned, as fresh objects of this database."""
        new_pks: dict[type[models.Model], dict[Any, Any]] = {}
        resolved: dict[tuple[type[models.Model], Any], Any] = {}
        for model, found in self.rows:
            meta = model._meta
            pk_name = meta.pk.attname  # type: ignore[union-attr]
            relations = [
                (f.attname, f.related_model) for f in meta.concrete_fields if f.is_relation
            ]
            objects = []
            for row in found:
                values = dict(row)
                values.pop(pk_name)
                for attname, target in relations:
                    old = values[attname]
                    if old is None:
                        continue
                    if target in BY_NATURAL_KEY:
                        if (target, old) not in resolved:
                            key = self.natural_keys[(target, old)]
                            manager: Any = target._default_manager  # type: ignore[union-attr]
                            resolved[(target, old)] = manager.get_by_natural_key(*key).pk
                        values[attname] = resolved[(target, old)]
                    elif target in new_pks:
                        values[attname] = new_pks[target][old]  # type: ignore[index]
                objects.append(model(**values))
            created = model._base_manager.bulk_create(objects)
            new_pks[model] = {row[pk_name]: obj.pk for row, obj in zip(found, created, strict=True)}
            assert all(pk is not None for pk in new_pks[model].values()), model
        return self._fetch(self.result, new_pks)

    def _fetch(self, value: Any, new_pks: dict[type[models.Model], dict[Any, Any]]) -> Any:
        if isinstance(value, Handle):
            return value.model._base_manager.get(pk=new_pks[value.model][value.pk])
        if isinstance(value, dict):
            return {k: self._fetch(v, new_pks) for k, v in value.items()}
        if isinstance(value, tuple | list):
            return type(value)(self._fetch(v, new_pks) for v in value)
        return value


@contextmanager
def rolled_back(django_db_blocker: Any) -> Iterator[None]:
    """Database access outside a test (in a session or module fixture), in a transaction that
    is rolled back: nothing stays for the tests."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)
