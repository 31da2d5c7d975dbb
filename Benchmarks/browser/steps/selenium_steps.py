"""The browser bench's steps for behave, in Selenium as its users write
them: elements by label, text or aria-label through XPath, and every
action and check waiting up to 5 seconds (WebDriverWait, polled every
30 ms, the longest storyrun's BrowserSteps waits between two tries), so
stories need no sleeps."""
from behave import step
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait


def wait(context):
    return WebDriverWait(context.driver, 5, poll_frequency=0.03)


def q(text):
    return "'" + text + "'" if "'" not in text else 'concat("' + text.replace('"', '", \'"\', "') + '")'


def field(context, name):
    xpath = (f"//input[@id=//label[normalize-space()={q(name)}]/@for]"
             f" | //label[normalize-space(text()[1])={q(name)}]//*[self::input or self::select or self::textarea]"
             f" | //*[@aria-label={q(name)} or @placeholder={q(name)}]")
    return wait(context).until(ready.element_to_be_clickable((By.XPATH, xpath)))


def region(context, name):
    return wait(context).until(ready.visibility_of_element_located((By.XPATH, f"//*[@aria-label={q(name)}]")))


@step('I visit {path}')
def visit(context, path):
    context.driver.get(context.base_url + path)


@step('I fill in "{name}" with "{text}"')
def fill_in(context, name, text):
    element = field(context, name)
    element.clear()
    element.send_keys(text)


@step('I click "{name}"')
def click(context, name):
    xpath = f"//button[normalize-space()={q(name)}] | //a[normalize-space()={q(name)}] | //input[@type='submit' and @value={q(name)}]"
    wait(context).until(ready.element_to_be_clickable((By.XPATH, xpath))).click()


@step('I select "{option}" from "{name}"')
def select(context, option, name):
    Select(field(context, name)).select_by_visible_text(option)


@step('I check "{name}"')
def check(context, name):
    element = field(context, name)
    if not element.is_selected():
        element.click()


@step('I am on {path}')
def am_on(context, path):
    wait(context).until(ready.url_to_be(context.base_url + path))


@step('I see "{text}" within "{name}"')
def see_within(context, text, name):
    area = region(context, name)
    wait(context).until(lambda _: text in area.text)


@step('I see "{text}"')
def see(context, text):
    wait(context).until(lambda driver: text in driver.find_element(By.TAG_NAME, "body").text)


@step('I see {count:d} list items within "{name}"')
def see_items(context, count, name):
    area = region(context, name)
    wait(context).until(lambda _: len(area.find_elements(By.TAG_NAME, "li")) == count)


@step('the "{name}" field contains "{value}"')
def field_contains(context, name, value):
    element = field(context, name)
    wait(context).until(lambda _: element.get_attribute("value") == value)


@step('the "{name}" field is empty')
def field_empty(context, name):
    element = field(context, name)
    wait(context).until(lambda _: element.get_attribute("value") == "")
