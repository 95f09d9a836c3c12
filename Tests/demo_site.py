"""The demo site's sources, shared by the browser and standards tests."""
import pathlib
import shutil

REPO = pathlib.Path(__file__).resolve().parents[1]
DEMO_INPUTS = ("marsgen.yml", "content", "templates", "static")


def copy_demo(destination):
    """Copies the demo site's inputs (not its output) into `destination`, which must exist."""
    for name in DEMO_INPUTS:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, destination / name)
        elif source.exists():
            shutil.copy(source, destination / name)
