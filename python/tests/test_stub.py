"""The type stub heterodox/_core.pyi matches the native module it describes.

Checked both ways: every public name of the module (functions, classes,
attributes) and every member of each class is in the stub, and everything
in the stub exists at run time, as the same kind of thing (property or
method), with the same parameter names and defaults, and with the same
docstring as the Rust doc comment it comes from.
"""

import ast
import inspect
from pathlib import Path

import pytest

from heterodox import _core

STUB_PATH = Path(_core.__file__).with_name("_core.pyi")

# Rich comparisons: PyO3 implements `__eq__` through the one comparison slot,
# which also fills in these (answering NotImplemented); the stub lists only
# `__eq__`.
COMPARISON_SLOTS = {"__ne__", "__lt__", "__le__", "__gt__", "__ge__"}
# Attributes every class has, not members written in Rust.
CLASS_BOOKKEEPING = {"__doc__", "__module__"}


def load_stub():
    return ast.parse(STUB_PATH.read_text(encoding="utf-8"), filename=str(STUB_PATH))


def is_exception_node(node):
    """A stub class deriving from ValueError: one of the module's exception
    classes, which have a base and a docstring but no members."""
    return any(isinstance(base, ast.Name) and base.id == "ValueError" for base in node.bases)


STUB = load_stub()
STUB_EXCEPTIONS = {
    node.name: node
    for node in STUB.body
    if isinstance(node, ast.ClassDef) and is_exception_node(node)
}
STUB_CLASSES = {
    node.name: node
    for node in STUB.body
    if isinstance(node, ast.ClassDef) and not is_exception_node(node)
}
STUB_FUNCTIONS = {node.name: node for node in STUB.body if isinstance(node, ast.FunctionDef)}
STUB_ATTRIBUTES = {
    node.target.id
    for node in STUB.body
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
}


def runtime_public_names():
    return {name for name in dir(_core) if not name.startswith("_")} | {"__version__"}


def stub_members(cls_node):
    return {node.name: node for node in cls_node.body if isinstance(node, ast.FunctionDef)}


def runtime_members(cls):
    return {
        name: member
        for name, member in vars(cls).items()
        if name not in CLASS_BOOKKEEPING and name not in COMPARISON_SLOTS
    }


def is_property(node):
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def is_slot(member):
    """A slot wrapper (`__repr__`, `__eq__`, ...): CPython's generic docstring
    and signature, nothing from the Rust side."""
    return type(member).__name__ in {"wrapper_descriptor", "method-wrapper"}


def stub_parameters(node):
    """(name, default) of a stub function's parameters, `self`/`cls` dropped;
    default is `inspect.Parameter.empty` when there is none."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(args.defaults)) + [
        ast.literal_eval(default) for default in args.defaults
    ]
    params = list(zip((a.arg for a in positional), defaults))
    if args.vararg is not None:
        params.append((args.vararg.arg, inspect.Parameter.empty))
    params += [
        (a.arg, inspect.Parameter.empty if d is None else ast.literal_eval(d))
        for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    if args.kwarg is not None:
        params.append((args.kwarg.arg, inspect.Parameter.empty))
    if params and params[0][0] in {"self", "cls"}:
        params = params[1:]
    return params


def runtime_parameters(obj):
    return [
        (p.name, p.default)
        for p in inspect.signature(obj).parameters.values()
        if p.name not in {"self", "cls"}
    ]


def same_doc(runtime_doc, stub_doc):
    return inspect.cleandoc(runtime_doc or "") == inspect.cleandoc(stub_doc or "")


def test_stub_is_next_to_the_module_and_typed():
    assert STUB_PATH.is_file()
    assert STUB_PATH.with_name("py.typed").is_file()


def test_module_names_match():
    stub_names = set(STUB_CLASSES) | set(STUB_EXCEPTIONS) | set(STUB_FUNCTIONS) | STUB_ATTRIBUTES
    assert stub_names == runtime_public_names()


@pytest.mark.parametrize("name", sorted(STUB_EXCEPTIONS))
def test_exception_class(name):
    cls = getattr(_core, name)
    node = STUB_EXCEPTIONS[name]
    assert cls.__bases__ == (ValueError,)
    assert cls.__module__ == "heterodox"
    assert same_doc(cls.__doc__, ast.get_docstring(node))
    # A docstring and nothing else: the classes add no members.
    assert len(node.body) == 1


def test_module_docstring_matches():
    assert same_doc(_core.__doc__, ast.get_docstring(STUB))


def test_attribute_types():
    assert isinstance(_core.__version__, str)
    for name in STUB_CLASSES:
        assert inspect.isclass(getattr(_core, name)), name
    for name in STUB_FUNCTIONS:
        assert callable(getattr(_core, name)), name


@pytest.mark.parametrize("name", sorted(STUB_FUNCTIONS))
def test_function(name):
    node = STUB_FUNCTIONS[name]
    function = getattr(_core, name)
    assert stub_parameters(node) == runtime_parameters(function)
    assert same_doc(function.__doc__, ast.get_docstring(node))


@pytest.mark.parametrize("name", sorted(STUB_CLASSES))
def test_class_members_match(name):
    cls = getattr(_core, name)
    assert set(stub_members(STUB_CLASSES[name])) == set(runtime_members(cls))


@pytest.mark.parametrize("name", sorted(STUB_CLASSES))
def test_class_docstring_and_constructor(name):
    cls = getattr(_core, name)
    node = STUB_CLASSES[name]
    assert same_doc(cls.__doc__, ast.get_docstring(node))
    members = stub_members(node)
    if "__new__" not in members:
        # Made only by the module (an Engine's search returns EngineResult):
        # the stub shows no constructor, and Python can call none.
        with pytest.raises(TypeError, match="cannot create .* instances"):
            cls()
        return
    assert stub_parameters(members["__new__"]) == runtime_parameters(cls)


@pytest.mark.parametrize(
    "cls_name, member_name",
    sorted(
        (cls_name, member_name)
        for cls_name, node in STUB_CLASSES.items()
        for member_name in stub_members(node)
        if member_name != "__new__"
    ),
)
def test_class_member(cls_name, member_name):
    node = stub_members(STUB_CLASSES[cls_name])[member_name]
    member = vars(getattr(_core, cls_name))[member_name]
    if is_property(node):
        assert inspect.isgetsetdescriptor(member), f"{member_name} is not a property at run time"
        assert same_doc(member.__doc__, ast.get_docstring(node))
    elif is_slot(member):
        # CPython's slot wrappers carry no Rust documentation or signature;
        # keep the stub free of docstrings there, as they would be invented.
        assert ast.get_docstring(node) is None
    else:
        assert callable(member) and not inspect.isgetsetdescriptor(member), member_name
        assert stub_parameters(node) == runtime_parameters(member)
        assert same_doc(member.__doc__, ast.get_docstring(node))
