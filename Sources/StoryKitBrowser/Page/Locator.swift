import Foundation
import StoryKit

/// How a step finds an element: the way a user describes it (a button or
/// link by its name, a field by its label or placeholder, an element by
/// role and name, a text, a region) or as a developer does (CSS, XPath).
///
/// In a step, `"css=.total"` and `"xpath=//li[2]"` (or any text starting
/// with `//`) are CSS and XPath; anything else is a name.
public struct Locator: Sendable, CustomStringConvertible {
    /// What the name is matched against.
    public enum Kind: String, Sendable {
        /// A button or link (`a[href]`, `button`, submit inputs, `role=button|link|…`) by accessible name.
        case clickable
        /// A form field by label, accessible name, placeholder, `name` or id.
        case field
        /// Any element with an ARIA role (given or implied), by accessible name.
        case role
        /// The innermost element whose visible text is the name.
        case text
        /// A landmark, section, form, list or any element named by its label, heading, legend or id.
        case region
        case css
        case xpath
    }

    public var kind: Kind
    /// The name, text, CSS selector or XPath expression.
    public var name: String
    /// The ARIA role for ``Kind/role`` (and a field's kind: `checkbox`, `radio`).
    public var role: String?
    /// Whether the first of several matches is meant (otherwise several fail).
    public var isFirst = false
    private var scopes: [Locator] = []

    /// Creates a locator.
    public init(_ kind: Kind, _ name: String, role: String? = nil, first: Bool = false) {
        self.kind = kind
        self.name = name
        self.role = role
        self.isFirst = first
    }

    /// Reads a locator a story wrote: `css=…` and `xpath=…` (or `//…`) are
    /// selectors, anything else a name of the given kind.
    public static func parse(_ text: String, as kind: Kind, role: String? = nil, first: Bool = false) -> Locator {
        if text.hasPrefix("css=") { return Locator(.css, String(text.dropFirst(4)), first: first) }
        if text.hasPrefix("xpath=") { return Locator(.xpath, String(text.dropFirst(6)), first: first) }
        if text.hasPrefix("//") || text.hasPrefix("(//") { return Locator(.xpath, text, first: first) }
        return Locator(kind, text, role: role, first: first)
    }

    /// The region the element is searched in.
    public var scope: Locator? {
        get { scopes.first }
        set { scopes = newValue.map { [$0] } ?? [] }
    }

    /// The same locator searched within a region.
    public func within(_ region: Locator?) -> Locator {
        var copy = self
        copy.scope = region
        return copy
    }

    /// What the locator looks for, as a message says it.
    public var description: String {
        let what: String
        switch kind {
        case .clickable: what = "a button or link \"\(name)\""
        case .field: what = "a \(role.map(Self.words) ?? "field") \"\(name)\""
        case .role: what = name.isEmpty ? "a \(Self.words(role ?? ""))" : "a \(Self.words(role ?? "")) \"\(name)\""
        case .text: what = "the text \"\(name)\""
        case .region: what = "a region \"\(name)\""
        case .css: what = "an element matching css=\(name)"
        case .xpath: what = "an element matching xpath=\(name)"
        }
        return what + (scope.map { " within \($0)" } ?? "")
    }

    /// An ARIA role as words: `listitem` is "list item".
    static func words(_ role: String) -> String {
        ["listitem": "list item", "columnheader": "column header", "menuitem": "menu item", "textbox": "text field",
         "combobox": "select", "radio": "radio button", "img": "image", "searchbox": "search field"][role] ?? role
    }

    /// The locator as the page script's JSON argument.
    var json: String { JSONValue.object(fields).text }

    /// The locator's fields for the page script, in the order written.
    var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("name", .string(name)), ("first", .bool(isFirst))]
        if let role { fields.append(("role", .string(role))) }
        if let scope { fields.append(("scope", .object(scope.fields))) }
        return fields
    }
}
