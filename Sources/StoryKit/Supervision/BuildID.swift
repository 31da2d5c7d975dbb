import Glibc

/// The GNU build id the linker wrote into this executable (its
/// `NT_GNU_BUILD_ID` note, what `readelf -n` shows as "Build ID"): the
/// same in every copy of one build, different in every other build.
///
/// A worker says its build id in its ready line and the parent compares
/// it with its own: a worker started from a path whose executable was
/// rebuilt or replaced during the run (watch mode rebuilding storyrun, say)
/// would speak another build's wire, so the parent does not take its
/// answers (see `SupervisedRun.handle`).
enum BuildID {
    /// This process's build id in hexadecimal, read from its own program
    /// headers in memory (no file is read but `/proc/self/auxv`); nil when
    /// the executable has none.
    static let current: String? = {
        let (address, count) = programHeaders()
        guard address != 0, let headers = UnsafePointer<Elf64_Phdr>(bitPattern: address) else { return nil }
        // Where the executable was loaded: the headers' address less the
        // address its PT_PHDR entry gives them.
        var base: UInt = 0
        for index in 0..<count where headers[index].p_type == UInt32(PT_PHDR) { base = address &- UInt(headers[index].p_vaddr) }
        for index in 0..<count where headers[index].p_type == UInt32(PT_NOTE) {
            guard let notes = UnsafeRawPointer(bitPattern: base &+ UInt(headers[index].p_vaddr)) else { continue }
            if let id = buildID(in: notes, size: Int(headers[index].p_memsz)) { return id }
        }
        return nil
    }()

    /// The `GNU` note of type 3 (`NT_GNU_BUILD_ID`) among ELF notes, as hex.
    private static func buildID(in notes: UnsafeRawPointer, size: Int) -> String? {
        let end = notes + size
        var note = notes
        while note + 12 <= end {
            let nameSize = Int(note.loadUnaligned(as: UInt32.self))
            let descriptionSize = Int(note.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            let type = note.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            let name = note + 12
            let description = name + ((nameSize + 3) & ~3)
            guard description + descriptionSize <= end else { return nil }
            if type == 3, nameSize == 4, memcmp(name, "GNU", 4) == 0 {
                let digits = Array("0123456789abcdef".utf8)
                var hex: [UInt8] = []
                for offset in 0..<descriptionSize {
                    let byte = description.load(fromByteOffset: offset, as: UInt8.self)
                    hex += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
                }
                return String(decoding: hex, as: UTF8.self)
            }
            note = description + ((descriptionSize + 3) & ~3)
        }
        return nil
    }

    /// The address and count of this executable's program headers, from
    /// the auxiliary vector (`AT_PHDR` 3, `AT_PHNUM` 5).
    private static func programHeaders() -> (address: UInt, count: Int) {
        let file = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return (0, 0) }
        defer { close(file) }
        var words = [UInt64](repeating: 0, count: 256)
        let size = words.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        var address: UInt = 0
        var count = 0
        for index in stride(from: 0, to: max(0, size / 8 - 1), by: 2) {
            if words[index] == 3 { address = UInt(words[index + 1]) }
            if words[index] == 5 { count = Int(words[index + 1]) }
        }
        return (address, count)
    }
}
