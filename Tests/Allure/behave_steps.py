# The consistency steps of storyrun's Allure test, for allure-behave to run
# the same feature (Tests/Allure/validate_allure.py --behave compares them).
import json
import os

from behave import given, step

import allure


@step("step {number:d} passes")
def passes(context, number):
    pass


@step("step {number:d} fails")
def fails(context, number):
    assert False, f"step {number} was told to fail"


@step("step {number:d} attaches")
def attaches(context, number):
    allure.attach(json.dumps({"step": number}), name=f"step{number}.json", attachment_type=allure.attachment_type.JSON)


@step("step {number:d} passes on attempt {attempt:d}")
def passes_on_attempt(context, number, attempt):
    pass
