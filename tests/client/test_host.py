"""The session host fills the free blocks among its objects before it forks (issue 32):
a session's first objects would go into those holes, and copy a page of the host's for
each, rather than into pages of its own."""

import json
import os
import subprocess
import sys

#: A fresh interpreter that imports Textual (whose imports free objects among those they
#: keep), then says the bytes free in the allocator's pools before and after the filling.
CHECK = """
import json
from client import host
import textual.app

def free():
    return sum(size * blocks for size, blocks in host.free_blocks() if size > 32)

before = free()
host._fill_pools()
print(json.dumps([before, free()]))
"""


def test_the_host_leaves_no_free_block_among_its_objects():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    said = subprocess.run([sys.executable, "-c", CHECK], cwd=root, capture_output=True,
                          check=True, timeout=60).stdout
    before, after = json.loads(said)
    assert before > 50_000  # Textual's imports left holes
    # What is left is the last pool each size class began while being filled.
    assert after < before / 4
