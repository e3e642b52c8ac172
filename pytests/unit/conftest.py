"""The unit tier's fixtures."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sqc.testing.lint import violations


@pytest.fixture(params=["sql", pytest.param("lint", marks=pytest.mark.lint)])
def lints_clean(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """Asserts that a rendered statement is clean under sqlfluff. sqlfluff
    takes seconds a statement, so a test taking this runs twice: without
    sqlfluff for `make test-fast` (its other assertions, in milliseconds),
    and again with it, marked lint, which `make test` runs."""

    def check(text: str) -> None:
        if request.param == "lint":
            found = violations(text)
            assert found == [], "\n".join([text, *found])

    return check
