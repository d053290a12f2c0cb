"""mslint.analysis.devices: what one file's device settings may select, read statically."""

from __future__ import annotations

import ast
import textwrap

from mslint.analysis import devices
from mslint.analysis.mode import AS_SCRIPT, ON_IMPORT, UNKNOWN


def _calls(source: str) -> list[devices.DeviceCall]:
    return list(devices.device_calls_of_tree(ast.parse(textwrap.dedent(source))))


def test_literals_in_any_spelling_and_both_branches() -> None:
    calls = _calls('''
        import mindspore as ms
        ms.set_context(device_target="Ascend")
        ms.set_device("gpu")
        ms.set_device(device_target="CPU")
        ms.set_context(mode=0, device_target="GPU" if USE_GPU else "Ascend")
        ms.set_context(device_target="npu")
    ''')
    assert [set(call.devices) for call in calls] == [
        {devices.ASCEND}, {devices.GPU}, {devices.CPU}, {devices.GPU, devices.ASCEND}, {UNKNOWN},
    ]
    assert all(call.runs == ON_IMPORT for call in calls)


def test_names_parameters_constants_and_options_of_the_file() -> None:
    calls = _calls('''
        import argparse, os
        from mindspore import context
        TARGET = "CPU"
        parser = argparse.ArgumentParser()
        parser.add_argument("--platform", default="GPU", choices=["GPU", "Ascend"])

        def init_env(cfg, device="Ascend"):
            context.set_context(device_target=device)
            chosen = cfg.device_target
            context.set_context(device_target=chosen)
            context.set_context(device_target=cfg["device"])
            context.set_context(device_target=os.getenv("DEVICE", "GPU").upper())
            context.set_context(device_target=TARGET)

        def run(args):
            context.set_context(device_target=args.platform)
            context.set_context(device_target=self.device)

        if __name__ == "__main__":
            init_env(None)
    ''')
    read = [(set(call.devices), call.runs, call.options) for call in calls]
    assert read == [
        ({devices.ASCEND}, "init_env", ()),  # a parameter default
        ({UNKNOWN}, "init_env", ("device_target",)),  # an option the program model reads
        ({UNKNOWN}, "init_env", ("device",)),
        ({devices.GPU}, "init_env", ()),  # an environment switch's default
        ({devices.CPU}, "init_env", ()),  # a module constant
        ({devices.GPU, devices.ASCEND}, "run", ()),  # an option of this file: its default and choices
        ({UNKNOWN}, "run", ()),  # an attribute of self: not read
    ]


def test_a_helper_the_module_calls_at_its_top_level_runs_on_import() -> None:
    calls = _calls('''
        import mindspore as ms

        def setup():
            ms.set_context(device_target="Ascend")

        setup()

        if __name__ == "__main__":
            ms.set_context(device_target="CPU")
    ''')
    assert [(call.runs, call.line) for call in calls] == [(ON_IMPORT, 5), (AS_SCRIPT, 10)]
