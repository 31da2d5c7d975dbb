/// Where the parts of a parsed ``JSONValue`` were written: the line and
/// column of each value and each object key, by path, beside the value
/// (filled by ``JSONValue/init(parsing:places:)``, so that a config file's
/// problems can name their place).
struct JSONPlaces {
    /// A part of a value: from the root, the position of an element in its
    /// list or of a member in its object, level by level (`[]` is the root;
    /// a key written twice has a place each time).
    typealias Path = [Int]

    /// Where a value or key starts (line and column in bytes, from 1) and
    /// the bytes it takes in the text.
    struct Place: Equatable {
        var line: Int
        var column: Int
        var bytes: Range<Int>
    }

    /// Each value's place, by its path.
    var values: [Path: Place] = [:]
    /// Each object member's key's place, by the member's path.
    var keys: [Path: Place] = [:]

    /// The place of the value at `path` (the start of the text for a path
    /// the value does not have).
    func value(_ path: Path) -> Place {
        values[path] ?? Place(line: 1, column: 1, bytes: 0..<0)
    }

    /// The place of the key of the member at `path` (the start of the text
    /// for a path the value does not have).
    func key(_ path: Path) -> Place {
        keys[path] ?? Place(line: 1, column: 1, bytes: 0..<0)
    }
}

extension JSONValue {
    /// Parses a whole JSON document as ``init(parsing:)`` does, and notes in
    /// `places` where each of its values and keys was written.
    /// - Throws: A ``SyntaxError`` at the first place that is not JSON.
    init(parsing text: String, places: inout JSONPlaces) throws(SyntaxError) {
        var reader = JSONReader(bytes: Array(text.utf8))
        reader.places = JSONPlaces()
        self = try reader.document()
        places = reader.places ?? JSONPlaces()
    }
}
