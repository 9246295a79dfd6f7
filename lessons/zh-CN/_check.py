"""中文版课程的答案检查。

规则只有一套，写在上一级目录的 ``_check.py`` 里（英文版课程用的也是它）；
这个文件只是把它载入，并把语言设为中文。所以两种语言的课程里都写
``from _check import check``，得到的是同一套规则、两种措辞。
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

LANGUAGE = "zh-CN"


def _load_rules():
    """Load ../_check.py under its own name (this file is also called _check)."""
    path = Path(__file__).resolve().parent.parent / "_check.py"
    spec = importlib.util.spec_from_file_location("_check_rules", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["_check_rules"] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


rules = _load_rules()
_CHECKERS = rules._CHECKERS


def verdict(name: str, answer, *given, source: str | None = None) -> tuple[bool | None, str]:
    """与 ``rules.verdict`` 相同，措辞是中文。"""
    return rules.verdict(name, answer, *given, language=LANGUAGE, source=source)


def check(name: str, answer, *given) -> None:
    """打印“答对了！”或一条提示。"""
    rules.check(name, answer, *given, language=LANGUAGE)
