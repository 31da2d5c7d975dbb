#!/usr/bin/env python3
"""Generates differential fixtures from the official Python implementation.

Usage: pip install cucumber-expressions==20.1.0 && python3 generate.py

Writes, beside this script:
- expressions.json: random expressions with the regex the official
  implementation makes of each, or the message of the error it raises;
- matches.json: step texts matched against expressions, with the argument
  values as compact JSON (or "nil", or "ERR " + message).

Inputs are seeded, so a rerun gives the same files. Texts ending in a line
break are left out: Python's `$` matches before a final line break, while
Java, JavaScript and storyrun match the whole text.
"""
import json
import pathlib
import random

from cucumber_expressions.expression import CucumberExpression
from cucumber_expressions.parameter_type_registry import ParameterTypeRegistry

HERE = pathlib.Path(__file__).parent
REGISTRY = ParameterTypeRegistry()
EXPRESSION_ATOMS = ["a", "b", " ", "(", ")", "{", "}", "/", "\\", "int", "word", "{int}",
                    "{}", "😀", "x y", "\\(", "\\/", "\\{", "."]
MATCHED_EXPRESSIONS = ["{int}", "{word}", "{}", "{string}", "a {int} b", "{int} {word}",
                       "{int}st/nd/rd/th", "I have {int} cuke(s)", "{string} and {string}",
                       "x/y {}", "{} {}", "(a )b/c {int}", "{int}{int}", "{word}{int}"]
TEXT_ATOMS = ["1", "-2", "a", " ", "\"", "'", "\\", "st", "b", "cuke", "cukes", "I have", "x",
              "y", "and", "\"q\"", "'r'", "٣", "\t"]


def expressions(rng: random.Random, count: int) -> list:
    sources = set()
    while len(sources) < count:
        sources.add("".join(rng.choice(EXPRESSION_ATOMS) for _ in range(rng.randint(0, 7))))
    cases = []
    for source in sorted(sources):
        try:
            cases.append({"expression": source,
                          "regex": CucumberExpression(source, REGISTRY).regexp})
        except Exception as error:  # the official errors, by message
            cases.append({"expression": source, "error": str(error)})
    return cases


def matches(rng: random.Random, per_expression: int) -> list:
    cases = []
    for source in MATCHED_EXPRESSIONS:
        expression = CucumberExpression(source, REGISTRY)
        texts = set()
        for _ in range(per_expression):
            texts.add("".join(rng.choice(TEXT_ATOMS) for _ in range(rng.randint(0, 5))))
        for text in sorted(texts):
            try:
                arguments = expression.match(text)
                result = "nil" if arguments is None else json.dumps(
                    [argument.value for argument in arguments], ensure_ascii=False,
                    separators=(",", ":"))
            except Exception as error:
                result = "ERR " + str(error)
            cases.append({"expression": source, "text": text, "result": result})
    return cases


def write(name: str, cases: list) -> None:
    with (HERE / name).open("w", encoding="utf-8") as stream:
        stream.write("[\n")
        stream.write(",\n".join(json.dumps(case, ensure_ascii=False) for case in cases))
        stream.write("\n]\n")
    print(f"{name}: {len(cases)} cases")


if __name__ == "__main__":
    write("expressions.json", expressions(random.Random(7), 1000))
    write("matches.json", matches(random.Random(11), 80))
