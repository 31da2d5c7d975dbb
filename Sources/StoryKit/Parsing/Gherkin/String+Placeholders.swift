extension String {
    /// Returns the string with every `<name>` replaced by `value`, left to
    /// right and without overlaps; the same as
    /// `replacingAll("<" + name + ">", with: value)`, but it builds no
    /// string unless the placeholder is there.
    func replacingPlaceholder(_ name: String, with value: String) -> String {
        var text = self
        var name = name
        return text.withUTF8 { source in
            name.withUTF8 { name in
                guard let first = Self.placeholder(name, in: source, from: 0) else { return self }
                var output: [UInt8] = []
                output.reserveCapacity(source.count + value.utf8.count)
                var copied = 0
                var found: Int? = first
                while let start = found {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<start]))
                    output.append(contentsOf: value.utf8)
                    copied = start + name.count + 2
                    found = Self.placeholder(name, in: source, from: copied)
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied...]))
                return String(decoding: output, as: UTF8.self)
            }
        }
    }

    /// The index of the first `<name>` in `source` at or after `from`.
    private static func placeholder(
        _ name: UnsafeBufferPointer<UInt8>, in source: UnsafeBufferPointer<UInt8>, from: Int
    ) -> Int? {
        let length = name.count + 2
        var index = from
        while index + length <= source.count {
            if source[index] == UInt8(ascii: "<") && source[index + length - 1] == UInt8(ascii: ">")
                && Self.bytes(source, at: index + 1, equal: name)
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Whether `source` holds the bytes of `name` at `start`.
    private static func bytes(
        _ source: UnsafeBufferPointer<UInt8>, at start: Int, equal name: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        for offset in 0..<name.count where source[start + offset] != name[offset] { return false }
        return true
    }

    /// Returns the string with every `<name>` replaced by the value in the
    /// same column, in one pass and one new string; `nil` when a name or
    /// value holds `<` or `>`, and a one-pass fill might differ from filling
    /// one column after another.
    ///
    /// Without `<` or `>` in names and values, placeholders can't overlap
    /// and no value can make a new one, so both ways give the same text.
    func fillingPlaceholdersInOnePass(_ names: [String], _ values: [String]) -> String? {
        func hasAngleBracket(_ text: String) -> Bool {
            text.utf8.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }
        }
        guard !names.contains(where: hasAngleBracket), !values.contains(where: hasAngleBracket) else { return nil }
        var text = self
        return text.withUTF8 { source in
            // The column of the placeholder whose `<` is at `open` and `>` at `close`.
            func column(_ open: Int, _ close: Int) -> Int? {
                let name = UnsafeBufferPointer(rebasing: source[open + 1..<close])
                let column = names.firstIndex { $0.utf8.count == name.count && $0.utf8.elementsEqual(name) }
                return column.flatMap { $0 < values.count ? $0 : nil }
            }
            // Calls `body` with each placeholder's `<` and `>` and column, left to right.
            func forEachPlaceholder(_ body: (_ open: Int, _ close: Int, _ column: Int) -> Void) {
                var index = 0
                while let open = source[index...].firstIndex(of: UInt8(ascii: "<")),
                    let close = source[(open + 1)...].firstIndex(of: UInt8(ascii: ">"))
                {
                    if let column = column(open, close) {
                        body(open, close, column)
                        index = close + 1
                    } else {
                        index = open + 1
                    }
                }
            }
            var length = source.count
            forEachPlaceholder { open, close, column in length += values[column].utf8.count - (close + 1 - open) }
            return String(unsafeUninitializedCapacity: length) { output in
                var written = 0
                var copied = 0
                func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
                    for byte in bytes {
                        output[written] = byte
                        written += 1
                    }
                }
                forEachPlaceholder { open, close, column in
                    write(source[copied..<open])
                    write(values[column].utf8)
                    copied = close + 1
                }
                write(source[copied...])
                return written
            }
        }
    }
}
