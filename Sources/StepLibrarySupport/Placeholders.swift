import StoryKit

/// Replaces `{name}` in step text with the value stored under `name` in the
/// story's store; names nothing is stored under are left as written, so
/// JSON braces pass through.
package enum Placeholders {
    /// Expands every `{name}` whose name is a key of the store.
    package static func expand(_ text: String, in store: StoryStore) -> String {
        guard text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if !name.isEmpty, !name.contains("\""), !name.contains("{"), let value = value(name, in: store) {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// The text of the value stored under a placeholder's name; nil when
    /// nothing is.
    package static func value(_ name: String, in store: StoryStore) -> String? {
        store[name].map { "\($0)" }
    }
}

/// The environment variables step libraries set for the commands a story
/// starts: a stub server puts its URL here, process steps pass it on.
package enum SharedEnvironment {
    /// The store key of the `[String: String]` of variables.
    package static let key = "process environment"

    /// The variables set so far in this story.
    package static func variables(in store: StoryStore) -> [String: String] {
        store[key] as? [String: String] ?? [:]
    }

    /// Sets a variable for the commands the story starts from now on.
    package static func set(_ name: String, to value: String, in store: StoryStore) {
        var variables = variables(in: store)
        variables[name] = value
        store[key] = variables
    }
}
