"""storyrun lsp driven over stdio by a real LSP client (pytest-lsp).

The server is `.build/debug/storyrun lsp` with the fixture step classes
(STORYRUN_FIXTURE_STEPS=1): BasketSteps, CheckoutSteps, MoodSteps...
"""
import asyncio
import json
import os
import pathlib
import shutil
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
STORYRUN = ROOT / ".build" / "debug" / "storyrun"
WORKSPACE = pathlib.Path(tempfile.mkdtemp(prefix="storyrun-lsp-"))
# A story file on disk, not open in the editor: completion and references read it.
(WORKSPACE / "Stories").mkdir()
(WORKSPACE / "Stories" / "saved.stories").write_text(
    "Story: A saved story\n"
    "  Given an empty basket\n"
    "  When I add 7 pears to the basket\n"
    "  Then the customer cheers\n"
)

FEATURE = """\
Feature: Basket
  Scenario Outline: Adding
    Given an empty basket
    When I add <n> apples to the basket
    Then the basket holds <count> apples
    And I pay 3 euros by "card"
    Examples:
      | n | count |
      | 3 | 3 |
      | 2 | lots |

  Scenario: In a hurry
    When I add 2 pears to the basket in a hurry
"""


@pytest.fixture(scope="module", autouse=True)
def workspace():
    yield WORKSPACE
    shutil.rmtree(WORKSPACE, ignore_errors=True)


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[str(STORYRUN), "lsp", "--stdio"],
        server_env={**os.environ, "STORYRUN_FIXTURE_STEPS": "1"},
    ),
)
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=WORKSPACE.as_uri())
    result = await lsp_client.initialize_session(params)
    assert result.server_info.name == "storyrun"
    yield
    await lsp_client.shutdown_session()


def uri(name: str) -> str:
    return (WORKSPACE / name).as_uri()


async def open_document(client: LanguageClient, name: str, text: str, version: int = 1):
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri(name), language_id="gherkin", version=version, text=text)))
    await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
    return client.diagnostics[uri(name)]


def at(diagnostics, line: int, code: str):
    return [d for d in diagnostics if d.range.start.line == line and d.code == code]


async def test_undefined_step_is_a_warning_with_the_snippet(client: LanguageClient):
    diagnostics = await open_document(client, "basket.feature", FEATURE)
    [undefined] = at(diagnostics, 5, "undefined")
    assert undefined.severity == types.DiagnosticSeverity.Warning
    assert 'no step definition matches "And I pay 3 euros by "card""' in undefined.message
    assert 'step(#"^I pay (-?\\d+) euros by "([^"]*)"$"#)' in undefined.message
    assert undefined.range.start.character == 4


async def test_arguments_that_do_not_convert_are_checked_in_every_examples_row(client: LanguageClient):
    diagnostics = await open_document(client, "basket.feature", FEATURE)
    [on_step] = at(diagnostics, 4, "conversion")
    assert on_step.severity == types.DiagnosticSeverity.Error
    assert 'argument 1 "lots" is not an Int' in on_step.message
    assert "Examples row at line 10" in on_step.message
    assert len(at(diagnostics, 9, "conversion")) == 1, "the row that does not convert is marked too"
    assert at(diagnostics, 8, "conversion") == [], "the row that converts is not"


async def test_ambiguous_step_gives_the_anchoring_advice(client: LanguageClient):
    diagnostics = await open_document(client, "basket.feature", FEATURE)
    [ambiguous] = at(diagnostics, 12, "ambiguous")
    assert "2 step definitions match" in ambiguous.message
    assert "help: " in ambiguous.message and "anchor" in ambiguous.message
    assert any("BasketSteps.swift" in info.location.uri for info in ambiguous.related_information)


async def test_parse_errors_come_with_their_help(client: LanguageClient):
    diagnostics = await open_document(client, "broken.stories", "Story: Broken\n  Then the basket is empty\n  Given an empty basket\n")
    parse = [d for d in diagnostics if d.code == "parse"]
    assert parse and parse[0].severity == types.DiagnosticSeverity.Error
    assert "help: " in parse[0].message


async def test_unknown_language_is_reported(client: LanguageClient):
    diagnostics = await open_document(client, "klingon.feature", "# language: xx-klingon\nFeature: Qapla\n")
    assert any(d.code == "parse" and "xx-klingon" in d.message for d in diagnostics)


async def test_did_change_republishes_and_did_close_clears(client: LanguageClient):
    await open_document(client, "basket.feature", FEATURE)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri("basket.feature"), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="Feature: F\n  Scenario: S\n    Given an empty basket\n")]))
    await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
    assert list(client.diagnostics[uri("basket.feature")]) == []
    await open_document(client, "undefined.stories", "Story: U\n  Given nothing is defined here\n")
    assert client.diagnostics[uri("undefined.stories")]
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri("undefined.stories"))))
    await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
    assert list(client.diagnostics[uri("undefined.stories")]) == []


async def test_completion_offers_definitions_as_snippets_and_used_lines(client: LanguageClient):
    await open_document(client, "new.feature", "Feature: F\n  Scenario: S\n    When I add\n")
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri("new.feature")), position=types.Position(line=2, character=14)))
    items = {item.label: item for item in result.items}
    add = items["I add {Int} {String} to the basket"]
    assert add.insert_text_format == types.InsertTextFormat.Snippet
    assert add.text_edit.new_text == "I add ${1:Int} ${2:String} to the basket"
    assert add.text_edit.range.start.character == 9
    assert "I add 7 pears to the basket" in items, "a step line a saved story uses"
    assert items["I add 7 pears to the basket"].insert_text_format == types.InsertTextFormat.PlainText


async def test_completion_offers_keywords_at_the_start_of_a_line(client: LanguageClient):
    await open_document(client, "fr.feature", "# language: fr\nFonctionnalité: F\n  Scénario: S\n    Sol\n")
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri("fr.feature")), position=types.Position(line=3, character=7)))
    labels = {item.label for item in result.items}
    assert "Soit" in labels and "Quand" in labels and "Given" not in labels


async def test_go_to_definition_opens_the_winning_swift_line(client: LanguageClient):
    await open_document(client, "basket.feature", FEATURE)
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri("basket.feature")), position=types.Position(line=12, character=10)))
    [location] = result
    assert location.uri.endswith("Sources/StoryrunSteps/BasketSteps.swift")
    line = (ROOT / "Sources/StoryrunSteps/BasketSteps.swift").read_text().splitlines()[location.range.start.line]
    assert "I add" in line


async def test_hover_shows_pattern_class_arguments_and_other_matches(client: LanguageClient):
    await open_document(client, "basket.feature", FEATURE)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri("basket.feature")), position=types.Position(line=12, character=10)))
    text = hover.contents.value
    assert "`.* I add (\\d+) (.*) to the basket` (regex)" in text
    assert "Step class `BasketSteps`" in text
    assert '"2" → `2` as Int' in text
    assert "Also matches" in text and "MoodSteps" in text


async def test_document_symbols_nest_features_stories_and_examples(client: LanguageClient):
    await open_document(client, "basket.feature", FEATURE)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri("basket.feature"))))
    [feature] = symbols
    assert feature.name == "Basket"
    assert [child.name for child in feature.children] == ["Adding", "In a hurry"]
    assert [child.name for child in feature.children[0].children] == ["Examples"]


async def test_formatting_indents_and_aligns_tables(client: LanguageClient):
    await open_document(client, "basket.feature", FEATURE)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri("basket.feature")),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    [edit] = edits
    assert "      | n | count |\n      | 3 | 3     |\n      | 2 | lots  |\n" in edit.new_text


async def test_find_references_finds_the_same_definition_across_the_workspace(client: LanguageClient):
    await open_document(client, "basket.feature", FEATURE)
    result = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri("basket.feature")), position=types.Position(line=3, character=8),
        context=types.ReferenceContext(include_declaration=True)))
    places = {(pathlib.Path(location.uri).name, location.range.start.line) for location in result}
    assert ("basket.feature", 3) in places and ("basket.feature", 12) in places
    assert any(name.endswith("saved.stories") and line == 2 for name, line in places)
    assert not any(line == 2 and name == "basket.feature" for name, line in places)


async def test_define_this_step_inserts_the_snippet_into_a_step_class(client: LanguageClient):
    diagnostics = await open_document(client, "basket.feature", FEATURE)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri("basket.feature")),
        range=types.Range(start=types.Position(line=5, character=0), end=types.Position(line=5, character=0)),
        context=types.CodeActionContext(diagnostics=at(diagnostics, 5, "undefined"))))
    titles = [action.title for action in actions]
    assert "Define this step in BasketSteps (BasketSteps.swift)" in titles
    action = actions[titles.index("Define this step in BasketSteps (BasketSteps.swift)")]
    [(file, [edit])] = action.edit.changes.items()
    assert file.endswith("BasketSteps.swift")
    assert '(steps: BasketSteps, int1: Int, string2: String) in' in edit.new_text
    assert action.diagnostics and action.diagnostics[0].code == "undefined"


async def test_unknown_requests_get_method_not_found(client: LanguageClient):
    with pytest.raises(Exception) as error:
        await client.protocol.send_request_async("storyrun/nothing", {})
    assert "does not handle" in str(error.value)


def test_neovim_smoke():
    """Neovim's built-in client against the server, headless, bounded in time."""
    import subprocess
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("neovim is not installed (make lsp-test installs it with apt-get where it can)")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="storyrun-nvim-"))
    try:
        feature = folder / "smoke.feature"
        feature.write_text("Feature: Smoke\n  Scenario: S\n    Given an empty basket\n    When nothing is defined here\n")
        out = folder / "out.txt"
        env = {**os.environ, "STORYRUN_FIXTURE_STEPS": "1", "STORYRUN": str(STORYRUN),
               "SMOKE_FEATURE": str(feature), "SMOKE_OUT": str(out), "HOME": str(folder),
               "README": str(pathlib.Path(__file__).resolve().parents[2] / "Sources/StoryKit/StoryKit.docc/TheEditor.md")}
        subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c",
                        f"luafile {pathlib.Path(__file__).with_name('neovim_smoke.lua')}"],
                       env=env, timeout=60, check=False, capture_output=True)
        lines = out.read_text().splitlines() if out.exists() else []
        assert any(line.startswith("diagnostic 3 undefined step") for line in lines), lines
        assert any(line.startswith("hover `^Given an empty basket$` (regex)") for line in lines), lines
        assert any(line.startswith("definition file://") and "BasketSteps.swift:" in line for line in lines), lines
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_neovim_recipe_of_the_documentation():
    """The Neovim recipe in TheEditor.md, as a user pastes it into init.lua,
    starts the server and shows its diagnostics in the Neovim installed here
    (Debian 12's is 0.7.2, where `vim.lsp.start` and `vim.filetype.add` do
    not exist: the recipe before did nothing there)."""
    import re
    import subprocess
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("neovim is not installed (make lsp-test installs it with apt-get where it can)")
    page = pathlib.Path(__file__).resolve().parents[2] / "Sources/StoryKit/StoryKit.docc/TheEditor.md"
    text = page.read_text()
    neovim = text[text.index("**Neovim**"):]
    recipe = re.search(r"```lua\n(.*?)```", neovim, re.S).group(1)
    placeholder = 'vim.fn.getcwd() .. "/.build/debug/YOUR-EXECUTABLE"'
    assert placeholder in recipe, recipe
    folder = pathlib.Path(tempfile.mkdtemp(prefix="storyrun-nvim-recipe-"))
    try:
        (folder / "init.lua").write_text(recipe.replace(placeholder, json.dumps(str(STORYRUN))))
        feature = folder / "smoke.feature"
        feature.write_text("Feature: Smoke\n  Scenario: S\n    Given an empty basket\n    When nothing is defined here\n")
        out = folder / "out.txt"
        env = {**os.environ, "STORYRUN_FIXTURE_STEPS": "1", "RECIPE": str(folder / "init.lua"),
               "SMOKE_FEATURE": str(feature), "SMOKE_OUT": str(out), "HOME": str(folder)}
        subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c",
                        f"luafile {pathlib.Path(__file__).with_name('neovim_recipe.lua')}"],
                       cwd=folder, env=env, timeout=60, check=False, capture_output=True)
        lines = out.read_text().splitlines() if out.exists() else []
        assert "filetype cucumber" in lines, lines
        assert any(line.startswith("diagnostic 3 undefined step") for line in lines), lines
    finally:
        shutil.rmtree(folder, ignore_errors=True)
