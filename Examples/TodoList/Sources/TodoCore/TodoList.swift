import Foundation

/// A to-do item.
public struct TodoItem: Codable, Equatable, Sendable {
    public var text: String
    public var done: Bool

    public init(text: String, done: Bool) {
        self.text = text
        self.done = done
    }
}

/// A to-do list kept in a JSON file.
public struct TodoList: Sendable {
    public var items: [TodoItem] = []
    let file: URL

    /// Reads the list from a file; a missing file is an empty list.
    public init(file: URL) throws {
        self.file = file
        if let data = try? Data(contentsOf: file) {
            items = try JSONDecoder().decode([TodoItem].self, from: data)
        }
    }

    /// Writes the list back to its file.
    public func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(items).write(to: file, options: .atomic)
    }
}
