"""`@frozen` behaves as `@dataclass(frozen=True)`: each case makes the same class both ways
and asks the same of both."""

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from pnp.frozen import frozen


def twins(body):
    """The class `body` makes, once with @frozen and once as a frozen dataclass."""
    return frozen(body()), dataclass(frozen=True)(body())


def point():
    class Point:
        """A point."""

        x: float
        y: float = 0.0
        tags: tuple = ()
        notes: list = field(default_factory=list, hash=False)
        where: str = field(default="here", compare=False, repr=False)

    return Point


def test_made_and_read_as_a_dataclass():
    for cls in twins(point):
        p = cls(1.5, tags=("a",))
        assert (p.x, p.y, p.tags, p.notes, p.where) == (1.5, 0.0, ("a",), [], "here")
        assert [f.name for f in dataclasses.fields(p)] == ["x", "y", "tags", "notes", "where"]
        assert dataclasses.asdict(p) == {"x": 1.5, "y": 0.0, "tags": ("a",), "notes": [],
                                         "where": "here"}
        assert dataclasses.is_dataclass(p)
        assert cls.__match_args__ == ("x", "y", "tags", "notes", "where")


def test_each_factory_call_is_a_new_value():
    for cls in twins(point):
        a, b = cls(1), cls(1)
        assert a.notes == [] and a.notes is not b.notes


def test_equal_by_compared_fields_and_hashed_by_hashed_ones():
    for cls in twins(point):
        assert cls(1, 2) == cls(1, 2, where="elsewhere")
        assert hash(cls(1, 2, ("t",))) == hash(cls(1, 2, ("t",), where="elsewhere"))
        assert cls(1, 2) != cls(1, 3)
        assert cls(1, 2) != (1, 2, (), [], "here")
        assert len({cls(1, 2, ("t",)), cls(1, 2, ("t",)), cls(2, 2, ("t",))}) == 2
        assert hash(cls(1, notes=[1])) == hash(cls(1, notes=[2])) and \
            cls(1, notes=[1]) != cls(1, notes=[2])


def test_not_equal_to_another_class_with_the_same_fields():
    mine, theirs = twins(point)
    assert mine(1) != theirs(1)
    assert mine(1) != frozen(point())(1)


def test_shown_as_a_dataclass_shows_itself():
    mine, theirs = twins(point)
    assert repr(mine(1, notes=[2])) == repr(theirs(1, notes=[2])) \
        .replace(theirs.__qualname__, mine.__qualname__)
    assert repr(mine(1)) == "point.<locals>.Point(x=1, y=0.0, tags=(), notes=[])"


def test_cannot_be_changed():
    for cls in twins(point):
        p = cls(1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.x = 2
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.other = 2
        with pytest.raises(dataclasses.FrozenInstanceError):
            del p.x
        assert p.x == 1


def test_replace_copy_and_pickle():
    for cls in twins(point):
        p = cls(1, 2, ("t",), [3])
        assert dataclasses.replace(p, y=5) == cls(1, 5, ("t",), [3])
        assert copy.deepcopy(p) == p and copy.copy(p) == p
        globals()["Point"] = cls  # pickle finds a class by its module and name
        cls.__qualname__ = "Point"
        try:
            assert pickle.loads(pickle.dumps(p)) == p
        finally:
            del globals()["Point"]


def test_arguments_checked_as_a_dataclass_checks_them():
    for cls in twins(point):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls(1, z=3)
        with pytest.raises(TypeError):
            cls(1, 2, (), [], "there", 6)


def test_a_default_before_a_required_field_is_refused_at_once():
    class Bad:
        a: int = 0
        b: int

    with pytest.raises(TypeError, match="non-default argument 'b'"):
        frozen(Bad)


def test_keyword_only_init_false_and_post_init():
    def body():
        class Box:
            """A box."""

            width: int
            height: int = field(default=1, kw_only=True)
            area: int = field(init=False, default=0)
            seen: list = field(init=False, default_factory=list)

            def __post_init__(self):
                object.__setattr__(self, "area", self.width * self.height)

        return Box

    for cls in twins(body):
        box = cls(3, height=4)
        assert (box.width, box.height, box.area, box.seen) == (3, 4, 12, [])
        with pytest.raises(TypeError):
            cls(3, 4)


def test_methods_the_class_writes_are_kept():
    def body():
        class Named:
            """A name."""

            name: str

            def __repr__(self):
                return f"<{self.name}>"

            def __init__(self, name):
                object.__setattr__(self, "name", name.upper())

        return Named

    for cls in twins(body):
        assert repr(cls("a")) == "<A>"
        assert cls("a") == cls("A") and hash(cls("a")) == hash(cls("A"))


def test_no_compared_fields():
    def body():
        class Empty:
            """Nothing."""

        return Empty

    for cls in twins(body):
        assert cls() == cls() and hash(cls()) == hash(cls())
