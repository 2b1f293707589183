"""benchmarks/pages.py files the session host's pages a forked session copied under the
package whose objects are on them (issue 32): a child that uses the engine's objects shows
the engine's pages copied, and one that uses nothing does not."""

import os
import subprocess
import sys

import pytest

from benchmarks import pages

#: A host in miniature: the engine imported and frozen, its objects filed by page, then two
#: children, one that takes a reference to every object the engine's modules hold (a write
#: to each one's count, so a copy of each page they are on) and one that takes none. Each
#: says its pid once done; the host waits, changing nothing, until its input ends.
HOST = """
import gc, os, sys
gc.disable()
import importlib, pkgutil, engine
for found in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(found.name)
import benchmarks.pages
gc.freeze()
benchmarks.pages.write_map(sys.argv[1])
held = [m for name, m in sys.modules.items() if name.split(".")[0] == "engine"]
children = []
for touch in (True, False):
    ready, done = os.pipe()
    child = os.fork()
    if child == 0:
        used = [value for module in held for value in vars(module).values()] if touch else []
        os.write(done, b"x")
        os.read(0, 1)
        os._exit(0)
    os.read(ready, 1)
    children.append(child)
print(*children, flush=True)
sys.stdin.read()
"""


@pytest.fixture
def host(tmp_path):
    path = str(tmp_path / "map")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    process = subprocess.Popen([sys.executable, "-c", HOST, path], cwd=root,
                               env=dict(os.environ, PYTHONPATH=root),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdin is not None
    touched, idle = (int(pid) for pid in process.stdout.readline().split())
    yield process.pid, touched, idle, pages.read_map(path)
    for child in (touched, idle):
        os.kill(child, 9)
    process.communicate(timeout=10)


def copied_by_package(pid, host, page_map):
    found = pages.copied(pid, host)
    return dict(pages.summary(pages.attribute(found.pages, page_map[0]), found.own,
                              page_map[1])["copied_by_package"])


def test_a_child_that_uses_a_packages_objects_copies_that_packages_pages(host):
    host_pid, touched, idle, page_map = host
    used = copied_by_package(touched, host_pid, page_map)
    unused = copied_by_package(idle, host_pid, page_map)
    # The engine's module-level objects take a few hundred kB of the host's pages.
    assert used["engine"] > 0.1
    assert unused.get("engine", 0) < used["engine"] / 4
    named = {k: v for k, v in used.items() if k not in (pages.UNKNOWN, "stdlib")}
    assert max(named, key=named.__getitem__) == "engine"
