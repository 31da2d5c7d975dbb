/// A reader of little-endian numbers, LEB128 numbers and C strings from a
/// span of bytes that never reads past the span's end.
///
/// A read that would go past the end gives zero (or nil for a string),
/// moves the cursor to the end and marks it broken: loops over a malformed
/// file stop at ``isAtEnd`` instead of crashing the process that reads it.
/// Every read moves the cursor forward by at least one byte or breaks it,
/// so no loop over reads runs for ever.
struct ByteCursor {
    /// The bytes read; they outlive the cursor (a mapped file, say).
    let bytes: UnsafeRawBufferPointer
    /// Where the next read starts, from the start of ``bytes``.
    private(set) var offset: Int
    /// Whether a read went past the end.
    private(set) var isBroken = false

    /// Creates a cursor at `offset`; one past the span is broken at once.
    init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        self.bytes = bytes
        self.offset = min(max(offset, 0), bytes.count)
        isBroken = offset < 0 || offset > bytes.count
    }

    /// Whether nothing is left to read (or a read went past the end).
    var isAtEnd: Bool { isBroken || offset >= bytes.count }

    /// Moves the cursor to `offset`, breaking it if that is outside the span.
    mutating func seek(to offset: Int) {
        guard offset >= 0, offset <= bytes.count else { return breakOff() }
        self.offset = offset
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) {
        guard count >= 0, count <= bytes.count - offset else { return breakOff() }
        offset += count
    }

    /// Reads one byte.
    mutating func u8() -> UInt8 {
        guard offset < bytes.count else {
            breakOff()
            return 0
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a little-endian 16-bit number.
    mutating func u16() -> UInt16 { UInt16(truncatingIfNeeded: little(2)) }

    /// Reads a little-endian 32-bit number.
    mutating func u32() -> UInt32 { UInt32(truncatingIfNeeded: little(4)) }

    /// Reads a little-endian 64-bit number.
    mutating func u64() -> UInt64 { little(8) }

    /// Reads an unsigned LEB128 number (bits past the 64th are dropped).
    mutating func uleb() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = u8()
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            shift += 7
            if byte & 0x80 == 0 || isBroken { return value }
        }
    }

    /// Reads a signed LEB128 number (bits past the 64th are dropped).
    mutating func sleb() -> Int64 {
        var value: Int64 = 0
        var shift: Int64 = 0
        var byte: UInt8 = 0
        repeat {
            byte = u8()
            if shift < 64 { value |= Int64(byte & 0x7F) << shift }
            shift += 7
        } while byte & 0x80 != 0 && !isBroken
        if shift < 64, byte & 0x40 != 0 { value |= -1 << shift }
        return value
    }

    /// Reads a NUL-terminated string, decoded as UTF-8 (invalid bytes
    /// repaired); nil when no NUL ends it before the span does.
    mutating func cString() -> String? {
        guard let length = Self.cStringLength(in: bytes, at: offset) else {
            breakOff()
            return nil
        }
        defer { offset += length + 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    }

    /// The length of the NUL-terminated string at `offset` in `bytes`, or
    /// nil when no NUL ends it there.
    static func cStringLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard offset >= 0, offset < bytes.count,
            let end = UnsafeRawBufferPointer(rebasing: bytes[offset...]).firstIndex(of: 0)
        else { return nil }
        return end
    }

    /// Reads `size` bytes as a little-endian number.
    private mutating func little(_ size: Int) -> UInt64 {
        guard size <= bytes.count - offset else {
            breakOff()
            return 0
        }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += size
        return value
    }

    private mutating func breakOff() {
        isBroken = true
        offset = bytes.count
    }
}
