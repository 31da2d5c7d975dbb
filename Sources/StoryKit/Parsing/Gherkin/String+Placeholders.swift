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
}
