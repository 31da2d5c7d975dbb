#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Returns the string with every `target` replaced by `replacement`, left
    /// to right and without overlaps, comparing UTF-8 bytes exactly. Builds
    /// no new string unless `target` is there.
    func replacingAll(_ target: String, with replacement: String) -> String {
        var source = self
        var target = target
        return source.withUTF8 { source in
            target.withUTF8 { target in
                guard let first = Self.offset(of: target, in: source, from: 0) else { return self }
                var output: [UInt8] = []
                output.reserveCapacity(source.count + replacement.utf8.count)
                var copied = 0
                var found: Int? = first
                while let start = found {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<start]))
                    output.append(contentsOf: replacement.utf8)
                    copied = start + target.count
                    found = Self.offset(of: target, in: source, from: copied)
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied...]))
                return String(decoding: output, as: UTF8.self)
            }
        }
    }

    /// The offset of the first `target` in `source` at or after `start`;
    /// nil when there is none, or when `target` is empty.
    private static func offset(
        of target: UnsafeBufferPointer<UInt8>, in source: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Int? {
        guard let first = target.first, let sourceStart = source.baseAddress, let targetStart = target.baseAddress else { return nil }
        var index = start
        while index + target.count <= source.count {
            // The next place the first byte is, then the rest compared at once.
            guard let found = memchr(sourceStart + index, Int32(first), source.count - target.count + 1 - index) else { return nil }
            index = sourceStart.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(sourceStart + index, targetStart, target.count) == 0 { return index }
            index += 1
        }
        return nil
    }
}
