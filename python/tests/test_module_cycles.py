"""No import loop between sibling modules, in the src/ tree of every Rust
crate (env, data, engine, selfplay, models, training, python/src and the
root's src/) or in the Python package python/heterodox: a loop makes the modules in it one unit in all but
name (none can be read, tested or moved without the others), so each new
one should be a decision, not an accident.

Needs no build and only the standard library; it runs under pytest or as a
script (``python3 python/tests/test_module_cycles.py``, which prints every
loop and exits 1 if there is one).

The rule
--------
Modules form a tree: in Rust, from each crate root (``lib.rs``,
``main.rs``, the ``[[bin]]`` paths of ``Cargo.toml``: the root crate's
src/net/main.rs is a tree of its own) through its ``mod`` declarations
(``x.rs`` or ``x/mod.rs``; a file's inline ``mod tests {}`` counts as
part of that file; a file that a macro declares, as env's variants,
joins the tree where its folder puts it); in Python, the package ``heterodox`` with
one module per ``.py``/``.pyi`` file and a subpackage per folder.

A module depends on another when it names it:

* Rust: every path starting ``crate::``, ``super::`` or ``self::``, in a
  ``use`` (trees expanded: ``use super::{a::X, b}``) or in code, and a
  ``use`` whose first segment is a module declared in the current one.
  The target is the longest prefix of the path that is a module:
  ``use crate::a::b::C`` depends on ``a::b`` when ``a::b`` is a module
  (a file or folder), else on ``a``. Re-exports are not followed: a name
  taken from a parent's ``pub use`` is a dependency on the parent.
* Python: every ``import`` and ``from ... import`` (relative or absolute,
  at the top or inside a function: a lazy import hides a loop from the
  interpreter, not from the reader) of the package; ``from p import x``
  depends on ``p.x`` when that is a module, else on ``p``.

A dependency from module S to module T is an edge between the two
children of their lowest common ancestor L that contain S and T: the
modules of one folder are the nodes and a subfolder is a single node
(everything under it counts as it). Hence a child naming its parent (``use
super::Thing`` from ``foo/bar.rs`` to ``foo/mod.rs``) or a parent naming
its child is never an edge: that is how a folder module exports what its
files define. A cycle among the children of one module is a loop, named
by its folder and files (``src/net/serve: api -> api_agent -> api``),
with every module of the loop when the cycle shown is not all of them.
A folder's loop is found whatever its depth; a loop through two folders
shows as one between them, at their common parent.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The Rust crates, by folder (their src/ trees are checked).
CRATES = ["env", "data", "stats", "engine", "selfplay", "models", "training", "python", "."]
PACKAGE = ROOT / "python" / "heterodox"

Graph = dict[tuple[str, ...], dict[str, set[str]]]


# --- Rust -----------------------------------------------------------------

_IDENT = r"(?:r#)?[A-Za-z_][A-Za-z0-9_]*"


def _raw_string_at(text: str, i: int) -> re.Match[str] | None:
    """The opening `r#"` (or `br"`) of a raw string at `i`, if one is."""
    if text[i] not in "br" or (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
        return None
    return re.compile(r'b?r(#*)"').match(text, i)


def _strip_rust(text: str) -> str:
    """The source with comments, string and char literals blanked (their
    newlines kept), so that only code is searched."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
            out.append(" ")
        elif (raw := _raw_string_at(text, i)) is not None:
            end = text.find('"' + raw.group(1), raw.end())
            end = n if end < 0 else end + 1 + len(raw.group(1))
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            char = re.match(r"'(?:\\(?:u\{[0-9a-fA-F]*\}|x[0-9a-fA-F]{2}|.)|[^\\'])'", text[i:])
            if char:
                out.append("' '")
                i += char.end()
            else:  # a lifetime or label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _use_paths(tree: str) -> list[list[str]]:
    """The paths of a `use` tree (`a::{b, c::*}` -> [a, b], [a, c, *])."""
    tree = re.sub(r"\s+", "", re.sub(r"\bas\s+" + _IDENT, "", tree))
    paths: list[list[str]] = []

    def walk(prefix: list[str], s: str) -> None:
        s = s.lstrip(":") if not prefix else s
        brace = s.find("{")
        if brace < 0:
            paths.append(prefix + [p for p in s.split("::") if p])
            return
        head = [p for p in s[:brace].split("::") if p]
        depth, start = 0, brace + 1
        for k in range(brace, len(s)):
            if s[k] == "{":
                depth += 1
            elif s[k] == "}":
                depth -= 1
                if depth == 0:
                    inner = s[start:k]
                    break
        else:
            inner = s[start:]
        items, depth, last = [], 0, 0
        for k, ch in enumerate(inner):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(inner[last:k])
                last = k + 1
        items.append(inner[last:])
        for item in items:
            if item:
                walk(prefix + head, item)

    walk([], tree)
    return paths


class _RustFile:
    """One source file: the modules it declares and the paths it names,
    each with the (inline) module it is written in."""

    def __init__(self, path: Path) -> None:
        code = _strip_rust(path.read_text(encoding="utf-8"))
        # `pub(in crate::x)` names a module only as a visibility.
        code = re.sub(r"pub\s*\(\s*in\s+[^)]*\)", "pub", code)
        # (inline module path, name) of each `mod x;`
        self.declared: list[tuple[tuple[str, ...], str]] = []
        self.inline: set[tuple[str, ...]] = set()
        # (inline module path, path named, whether in a `use`)
        self.refs: list[tuple[tuple[str, ...], list[str], bool]] = []
        token = re.compile(
            rf"\b(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+({_IDENT})\s*([;{{])"
            rf"|\buse\s+([^;]*);"
            rf"|(?<![$\w])((?:crate|super|self)(?:\s*::\s*{_IDENT})+)"
            r"|([{}])"
        )
        # The inline modules open, with the brace depth each opened at.
        stack: list[tuple[str, int]] = []
        depth = 0
        for m in token.finditer(code):
            here = tuple(name for name, _ in stack)
            if m.group(1):
                if m.group(2) == ";":
                    self.declared.append((here, m.group(1)))
                else:
                    depth += 1
                    stack.append((m.group(1), depth))
                    self.inline.add(here + (m.group(1),))
            elif m.group(3) is not None:
                for p in _use_paths(m.group(3)):
                    self.refs.append((here, [s.removeprefix("r#") for s in p], True))
            elif m.group(4):
                self.refs.append((here, re.split(r"\s*::\s*", m.group(4)), False))
            elif m.group(5) == "{":
                depth += 1
            else:
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1


@functools.lru_cache(maxsize=None)
def _parse(file: Path) -> _RustFile:
    return _RustFile(file)


def _rust_modules(root_file: Path) -> dict[tuple[str, ...], Path]:
    """The file-backed modules a crate root declares, by path."""
    modules: dict[tuple[str, ...], Path] = {(): root_file}
    _declared_under(modules, (), root_file, root_file)
    return modules


def _declared_under(
    modules: dict[tuple[str, ...], Path], path: tuple[str, ...], file: Path, root_file: Path
) -> None:
    """Adds the modules `file` (module `path`) declares, and theirs."""
    base = _children_dir(file, root_file)
    for inline, name in _parse(file).declared:
        folder = base.joinpath(*inline)
        for candidate in (folder / f"{name}.rs", folder / name / "mod.rs"):
            if candidate.exists() and path + inline + (name,) not in modules:
                modules[path + inline + (name,)] = candidate.resolve()
                _declared_under(modules, path + inline + (name,), candidate, root_file)
                break


def _children_dir(file: Path, root_file: Path) -> Path:
    """Where the files of the modules `file` declares live."""
    return file.parent if file.name == "mod.rs" or file == root_file else file.with_suffix("")


def crate_trees(crate: Path) -> dict[Path, dict[tuple[str, ...], Path]]:
    """The module tree of each root of a crate. A file that no `mod`
    declares (env's variants are declared by its `registry!` macro) joins
    the tree of the root whose folder holds it, where its folder says, when
    its parent module is there and no other root declares it."""
    trees = {root: _rust_modules(root) for root in _crate_roots(crate)}
    for root, modules in trees.items():
        claimed = {f for other, m in trees.items() if other != root for f in m.values()}
        changed = True
        while changed:
            changed = False
            owned = set(modules.values())
            for file in sorted(root.parent.rglob("*.rs"), key=lambda f: len(f.parts)):
                file = file.resolve()
                if file in owned or file in claimed:
                    continue
                rel = file.relative_to(root.parent).with_suffix("").parts
                path = rel[:-1] if rel[-1] == "mod" else rel
                parent = modules.get(path[:-1]) if path else None
                # `dir/x.rs` or `dir/x/mod.rs`, where the parent's children live.
                where = _children_dir(parent, root) / path[-1] if parent else None
                if where in (file.with_suffix(""), file.parent):
                    modules[path] = file
                    _declared_under(modules, path, file, root)
                    changed = True
                    break
    return trees


def _crate_roots(crate: Path) -> list[Path]:
    roots = [crate / "src" / "lib.rs", crate / "src" / "main.rs"]
    roots += sorted((crate / "src" / "bin").glob("*.rs"))
    manifest = crate / "Cargo.toml"
    if manifest.exists():
        paths = re.findall(r'^\s*path\s*=\s*"(src/[^"]+\.rs)"', manifest.read_text(), re.M)
        roots += [crate / p for p in paths]
    seen: list[Path] = []
    for r in roots:
        if r.exists() and r.resolve() not in seen:
            seen.append(r.resolve())
    return seen


def _add_edge(graph: Graph, source: tuple[str, ...], target: tuple[str, ...]) -> None:
    """The edge between the children of the lowest common ancestor of
    `source` and `target` that hold them (none for a parent and child)."""
    k = 0
    while k < min(len(source), len(target)) and source[k] == target[k]:
        k += 1
    if k == len(source) or k == len(target):
        return
    graph.setdefault(source[:k], {}).setdefault(source[k], set()).add(target[k])


def rust_graph(modules: dict[tuple[str, ...], Path]) -> Graph:
    """The sibling-module dependency graph of one crate root's tree (see
    crate_trees), by parent module."""
    files = {path: _parse(file) for path, file in modules.items()}
    known = set(modules)
    for path, parsed in files.items():
        known |= {path + inline for inline in parsed.inline}
    graph: Graph = {}
    for path, parsed in files.items():
        for inline, segments, in_use in parsed.refs:
            here = path + inline
            first = segments[0]
            if first == "crate":
                absolute = list(segments[1:])
            elif first in ("super", "self"):
                at = list(here)
                rest = list(segments)
                while rest and rest[0] in ("super", "self"):
                    if rest.pop(0) == "super":
                        if not at:
                            break
                        at.pop()
                absolute = at + rest
            elif in_use and here + (first,) in known:
                absolute = list(here) + segments  # a module declared here
            else:
                continue  # another crate, or a name in scope
            target = tuple(absolute)
            while target not in known and target:
                target = target[:-1]
            # An inline module is part of its file for the graph's nodes.
            source = path
            _add_edge(graph, source, target if target in modules else _file_of(target, modules))
    return graph


def _file_of(path: tuple[str, ...], modules: dict[tuple[str, ...], Path]) -> tuple[str, ...]:
    while path not in modules:
        path = path[:-1]
    return path


# --- Python ---------------------------------------------------------------


def python_graph(package: Path) -> Graph:
    """The sibling-module import graph of a package, by parent package."""
    name = package.name
    modules: dict[tuple[str, ...], Path] = {}
    # A stub (`_core.pyi`, the native module's) stands for a module with no
    # source; a module's own .py wins over its stub.
    for file in sorted(package.rglob("*.py*"), key=lambda f: f.suffix == ".py"):
        if file.suffix not in (".py", ".pyi") or "__pycache__" in file.parts:
            continue
        rel = file.relative_to(package.parent).with_suffix("").parts
        modules[rel[:-1] if rel[-1] == "__init__" else rel] = file
    graph: Graph = {}
    for path, file in modules.items():
        is_package = file.name == "__init__.py"
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        for node in ast.walk(tree):
            targets: list[tuple[str, ...]] = []
            if isinstance(node, ast.Import):
                targets = [tuple(alias.name.split(".")) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = path if is_package else path[:-1]
                    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                    origin = base + tuple(node.module.split(".") if node.module else ())
                else:
                    origin = tuple((node.module or "").split("."))
                targets = [origin + (alias.name,) for alias in node.names]
            for target in targets:
                if not target or target[0] != name:
                    continue
                while target not in modules and target:
                    target = target[:-1]
                if target:
                    _add_edge(graph, path, target)
    return graph


# --- Cycles ---------------------------------------------------------------


def cycles(graph: Graph) -> list[tuple[tuple[str, ...], list[str], list[str]]]:
    """One cycle per strongly connected component of each folder's graph,
    as (parent module, [a, b, ..., a], the component's modules)."""
    found = []
    for parent, edges in sorted(graph.items()):
        nodes = sorted(set(edges) | {t for ts in edges.values() for t in ts})
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on: set[str] = set()
        components: list[list[str]] = []

        def strong(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on.add(v)
            for w in sorted(edges.get(v, ())):
                if w not in index:
                    strong(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

        for v in nodes:
            if v not in index:
                strong(v)
        for component in components:
            found.append((parent, _one_cycle(edges, set(component)), component))
    return found


def _one_cycle(edges: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the first node of a strongly connected
    component."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges.get(v, ()) & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start] + path[::-1][1:] + [start]
                if w not in previous:
                    previous[w] = v
                    following.append(w)
        frontier = following
    return sorted(component)


def all_loops() -> list[str]:
    """Every loop, one line each: where, the cycle, and the whole
    strongly connected set when the cycle shown is not all of it."""
    lines = []
    for crate in CRATES:
        for root_file, modules in crate_trees(ROOT / crate).items():
            for parent, cycle, component in cycles(rust_graph(modules)):
                lines.append(_loop_line(_rust_where(modules, parent), cycle, component))
    for parent, cycle, component in cycles(python_graph(PACKAGE)):
        lines.append(_loop_line("python/" + "/".join(parent), cycle, component))
    return lines


def _loop_line(where: str, cycle: list[str], component: list[str]) -> str:
    line = f"{where}: {' -> '.join(cycle)}"
    if len(component) > len(cycle) - 1:
        line += f" (the loop joins {', '.join(component)})"
    return line


def _rust_where(modules: dict[tuple[str, ...], Path], parent: tuple[str, ...]) -> str:
    """The folder of a module's children, as the repository names it."""
    file = modules[parent]
    rel = file.relative_to(ROOT)
    return str(rel.parent if parent == () or file.name == "mod.rs" else rel.with_suffix(""))


def test_no_module_loops() -> None:
    loops = all_loops()
    rule = "import loops between sibling modules (the rule: this file's docstring)"
    assert not loops, rule + ":\n" + "\n".join(loops)


def test_finds_a_loop() -> None:
    """The checker itself: a loop is found and named, a parent/child
    reference is not one."""
    graph: Graph = {}
    _add_edge(graph, ("serve", "api"), ("serve", "extract"))
    _add_edge(graph, ("serve", "extract", "tests"), ("serve", "api"))
    _add_edge(graph, ("serve", "store"), ("serve",))
    _add_edge(graph, ("serve",), ("serve", "store"))
    assert cycles(graph) == [(("serve",), ["api", "extract", "api"], ["api", "extract"])]
    assert _use_paths("super::{a::X, b::{self, Y as Z}, c::*}") == [
        ["super", "a", "X"],
        ["super", "b", "self"],
        ["super", "b", "Y"],
        ["super", "c", "*"],
    ]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_reads_a_crate(tmp_path: Path) -> None:
    """A small crate: `use` trees, `super::super`, a folder module, an
    inline test module, and paths in strings, comments and lifetimes that
    must not count."""
    _write(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "x"\n',
            "src/lib.rs": "mod a;\nmod b;\nmod c;\nmod d;\npub use a::Thing;\n",
            "src/a.rs": (
                'use crate::b::B;\npub struct Thing;\nconst S: &str = "crate::c::C"; // crate::c\n'
            ),
            "src/b.rs": "use super::{c::C, a::Thing as T};\npub struct B;\n",
            "src/c.rs": "pub struct C;\nfn f<'a>(x: &'a str) -> char { '\\'' }\n/* super::d */\n",
            "src/d/mod.rs": "mod inner;\npub use inner::I;\nuse super::Thing;\n",
            "src/d/inner.rs": (
                "use super::super::a::Thing;\npub struct I;\n"
                "#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::d::I;\n}\n"
            ),
        },
    )
    [(root, modules)] = crate_trees(tmp_path).items()
    assert sorted(modules) == [(), ("a",), ("b",), ("c",), ("d",), ("d", "inner")]
    graph = rust_graph(modules)
    assert graph == {(): {"a": {"b"}, "b": {"a", "c"}, "d": {"a"}}}
    assert cycles(graph) == [((), ["a", "b", "a"], ["a", "b"])]


def test_reads_a_package(tmp_path: Path) -> None:
    """A small package: absolute, relative and lazy imports; a subpackage
    is one node; importing the package itself is no edge."""
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.x import f\n",
            "pkg/x.py": "import pkg\n\ndef f():\n    from . import y\n",
            "pkg/y.py": "from pkg.z import g\n",
            "pkg/z.py": "import pkg.sub.w\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/w.py": "from ..x import f\nfrom . import v\n",
            "pkg/sub/v.py": "",
        },
    )
    graph = python_graph(tmp_path / "pkg")
    assert graph == {
        ("pkg",): {"x": {"y"}, "y": {"z"}, "z": {"sub"}, "sub": {"x"}},
        ("pkg", "sub"): {"w": {"v"}},
    }
    assert cycles(graph) == [(("pkg",), ["sub", "x", "y", "z", "sub"], ["sub", "x", "y", "z"])]


if __name__ == "__main__":
    found = all_loops()
    print("\n".join(found) if found else "no loops")
    sys.exit(1 if found else 0)
