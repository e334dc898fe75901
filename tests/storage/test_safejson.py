"""The bounded JSON loader (proofkit.storage.safejson) and the capped echo of InputError (issue #10, findings
2
and 7): every malformed or hostile document is an InputError naming the field, quickly, never a
traceback, a hang or a quote of the file beyond the echo cap."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from proofkit.crasp.compilation.network import Network
from proofkit.crasp.semantics.truth import DFA, load_dfa
from proofkit.errors import MAX_ECHO, InputError, echo
from proofkit.language.tolerances import MAX_DPS
from proofkit.storage import record, safejson

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "counterexamples").glob("*.json"))


def _err(fn, *args, **kw) -> InputError:
    with pytest.raises(InputError) as info:
        fn(*args, **kw)
    assert "\n" not in str(info.value)
    return info.value


# ----------------------------------------------------------------------------- parsing
@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000,
                                  "[" * 100_000])
def test_deep_nesting_is_refused_before_parsing(text):
    t0 = time.perf_counter()
    exc = _err(safejson.loads, text, "record")
    assert exc.field == "record" and "nested at most" in exc.expected
    assert time.perf_counter() - t0 < 1


def test_brackets_inside_strings_do_not_count():
    doc = json.dumps({"a": "[" * 10_000, "b": ["]]]" * 5]})
    assert safejson.nesting_depth(doc) == 2
    assert safejson.loads(doc, "x")["a"] == "[" * 10_000
    assert safejson.nesting_depth('"unterminated \\" [[[') == 0
    assert safejson.nesting_depth("[" * 33) == 33


def test_unterminated_strings_scan_in_linear_time():
    text = '"' + '\\"' * 500_000  # each quote would restart a backtracking string match
    t0 = time.perf_counter()
    _err(safejson.loads, text, "doc", max_bytes=10**7)
    assert time.perf_counter() - t0 < 2


def test_duplicate_keys_are_refused_naming_the_key():
    exc = _err(safejson.loads, '{"theorem": "A", "x": {"k": 1, "k": 2}, "theorem": "B"}', "record")
    assert exc.field == "k" and "duplicate" in exc.expected


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}'])
def test_nan_and_infinity_are_refused(text):
    assert "NaN or Infinity" in _err(safejson.loads, text, "doc").expected


def test_integers_and_floats_are_capped():
    assert safejson.loads("1" * safejson.MAX_INT_DIGITS, "d") == int("1" * safejson.MAX_INT_DIGITS)
    exc = _err(safejson.loads, "[" + "9" * 5000 + "]", "record")
    assert "40 ASCII digits" in exc.expected and "5000 digits" in str(exc)
    assert "finite" in _err(safejson.loads, "1e999", "d").expected
    assert "write long numbers" in _err(safejson.loads, "0." + "1" * 100, "d").expected
    assert safejson.loads("[0.5, -2e-3]", "d") == [0.5, -0.002]


def test_unicode_digits_are_not_json_numbers():
    for text in ["\u0661", "[\uff11]", "1\u0662"]:
        _err(safejson.loads, text, "d")


def test_utf8_only_bom_dropped_and_no_lone_surrogates():
    assert safejson.loads(b"\xef\xbb\xbf{\"a\": 1}", "d") == {"a": 1}
    assert safejson.loads("\ufeff[1]", "d") == [1]
    assert "UTF-8" in _err(safejson.loads, b"\xff\xfe{}", "d").expected
    assert "UTF-8" in _err(safejson.loads, "[1]".encode("utf-16"), "d").expected
    exc = _err(safejson.loads, '{"a": ["ok", "\\ud800"]}', "d")
    assert exc.field == "a[1]" and "surrogate" in exc.expected
    assert safejson.loads('"\\ud83d\\ude00"', "d") == "\U0001f600"  # a proper pair is fine


def test_size_cap_on_text_and_bytes():
    assert "at most 10 bytes" in _err(safejson.loads, "[" + " " * 20 + "]", "d", max_bytes=10).expected
    assert "at most 10 bytes" in _err(safejson.loads, b"[" + b" " * 20 + b"]", "d", max_bytes=10).expected


def test_syntax_errors_give_position_not_content():
    exc = _err(safejson.loads, "root:x:0:0:secret-hash-here:/root:/bin/bash\n", "record")
    assert exc.field == "record" and "line 1, column 1" in exc.expected
    assert "root" not in str(exc) and "secret" not in str(exc)


# ----------------------------------------------------------------------------- reading files
def test_refuses_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "rec.json"
    os.mkfifo(fifo)
    box: list = []
    worker = threading.Thread(target=lambda: box.append(_err(safejson.read_bytes, fifo, "record")),
                              daemon=True)
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert "regular file" in box[0].expected and "FIFO" in str(box[0])


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/"])
def test_refuses_devices_and_folders(path):
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    exc = _err(record.load, path)
    assert exc.field == "record" and "regular file" in exc.expected


def test_byte_cap_on_files(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (record.MAX_RECORD_BYTES + 1) + b"{}")
    exc = _err(record.load, big)
    assert f"at most {record.MAX_RECORD_BYTES} bytes" in exc.expected


def test_missing_and_overlong_names(tmp_path):
    assert "existing file" in _err(record.load, tmp_path / "nope.json").expected
    exc = _err(record.load, tmp_path / ("x" * 300 + ".json"))  # ENAMETOOLONG, not an OSError traceback
    assert exc.field == "record" and len(str(exc)) < 400


# ----------------------------------------------------------------------------- numbers
@pytest.mark.parametrize("good", ["0", "-0.0", "1.5", ".5", "5.", "+3e-7", "1E+10", "0.0001",
                                  "1e-1000", "0." + "1" * (MAX_DPS + 30), "1.7e308"])
def test_decimal_strings_accepted(good):
    assert safejson.check_decimal(good, "f") == good


@pytest.mark.parametrize("bad", ["1e-1001", "1e-999999", "1e-9999999", "0." + "1" * 600, "1e309", "NaN",
                                 "inf", "", " 1", "1 ", "0x10", "1_000", "1.0.0", "\u0661.5", "\uff11",
                                 "1\u06f2", "\u00b2", "1e", "e5", "--1", 1.5, None, 3])
def test_decimal_strings_refused(bad):
    exc = _err(safejson.check_decimal, bad, "learned_params[0]")
    assert exc.field == "learned_params[0]"


def test_tiny_exponent_is_refused_fast():
    t0 = time.perf_counter()
    for text in ("1e-999999", "1e-9999999", "0e-999999"):
        _err(safejson.check_decimal, text, "f")
    assert time.perf_counter() - t0 < 0.1


def test_fractions_and_rationals():
    cap = safejson.MAX_FRACTION_DIGITS
    assert safejson.check_number("-123/456", "f") == "-123/456"
    assert safejson.check_number("1" * cap + "/" + "7" * cap, "f")
    for bad in ["1/0", "1/-3", "\u0661/2", "1/2/3", "1.5/2", "/3", "1" * (cap + 1) + "/3", "1/ 2"]:
        _err(safejson.check_number, bad, "f")
    assert safejson.check_rational("-7", "w") == "-7" and safejson.check_rational("1/3", "w") == "1/3"
    for bad in ["1.5", "1e3", "\uff11", "", 2, "0x1"]:
        _err(safejson.check_rational, bad, "w")


def test_longest_stored_fraction_is_within_the_cap():
    longest = 0
    for path in RECORDS:
        for v in json.loads(path.read_text()).get("learned_params", []):
            if "/" in v:
                longest = max(longest, *(len(part.lstrip("+-")) for part in v.split("/")))
    assert 0 < longest <= safejson.MAX_FRACTION_DIGITS // 10  # margin of ten


# ----------------------------------------------------------------------------- other documents
def test_dfa_files_go_through_the_loader(tmp_path):
    good = {"alphabet": ["a"], "states": ["q"], "start": "q", "accept": ["q"], "delta": {"q": {"a": "q"}}}
    path = tmp_path / "dfa.json"
    path.write_text(json.dumps(good))
    assert load_dfa(path).alphabet == ("a",)
    assert _err(DFA.from_json, '{"alphabet": ["a"], "alphabet": ["b"]}').field == "alphabet"
    assert "nested" in _err(DFA.from_json, "[" * 50_000).expected
    assert "regular file" in _err(load_dfa, "/dev/zero").expected


def test_network_json_is_checked_field_by_field():
    from proofkit.crasp.compilation.compiler import compile_program
    from proofkit.crasp.language.parser import load

    net = compile_program(load(ROOT / "theorems/hyb24/programs/majority.crasp"))
    text = net.to_json()
    assert Network.from_json(text).to_json() == text
    obj = json.loads(text)
    cases = {
        "E[0].0": lambda o: o["E"][0].update({"0": "1e999999"}),
        "U.shape[1]": lambda o: o["U"].update(shape=[1, 3]),
        "U.entries[0][2]": lambda o: o["U"]["entries"][0].__setitem__(2, 0.5),
        "layers[0].heads": lambda o: o["layers"][0].update(heads={}),
        "offset": lambda o: o.update(offset="0"),
        "format": lambda o: o.update(format="other"),
        "dims": lambda o: o.update(dims=[1, 2]),
    }
    for field, mutate in cases.items():
        bad = json.loads(text)
        mutate(bad)
        assert _err(Network.from_json, json.dumps(bad)).field == field, field
    assert _err(Network.from_json, '{"format": 1, "format": 2}').field == "format"
    assert obj["format"] == "proofkit-limit-transformer-1"


def test_library_index_goes_through_the_loader(tmp_path):
    from proofkit.crasp.tasks.library import load_index

    (tmp_path / "index.json").write_text('{"programs": [], "programs": []}')
    assert _err(load_index, tmp_path).field == "programs"
    assert _err(load_index, tmp_path / "missing").field == "index.json"


# ----------------------------------------------------------------------------- the echo cap
def test_echo_is_capped_one_line_and_never_raises():
    huge = "x" * 10_000_000
    msg = str(InputError("--string", "a short string", huge))
    assert len(msg) < MAX_ECHO + 200 and "(10000000 characters)" in msg
    assert "\n" not in str(InputError("a\nb", "c\nd", "e\nf"))
    assert "digits" in echo(10 ** 5000)  # no ValueError from Python's int-string limit
    assert echo([1] * 1000).endswith("(1000 items)")

    class Bad:
        def __repr__(self) -> str:
            raise RuntimeError("boom")

    assert echo(Bad()) == "a Bad"
