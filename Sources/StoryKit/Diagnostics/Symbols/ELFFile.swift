#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable or shared library in the ELF format (64-bit,
/// little-endian), mapped read-only, and the sections it holds.
///
/// Made to read a crashed worker's executable from its healthy parent:
/// every read is bounds-checked, so a truncated or garbled file gives
/// fewer sections (and so less detail), never a crash.
final class ELFFile {
    /// A section: its name, where its bytes lie in the file, and the
    /// address it loads at (0 for what never loads, such as debug info).
    struct Section {
        var name: String
        var type: UInt32
        var address: UInt64
        var bytes: UnsafeRawBufferPointer
        /// The section its entries name strings in (`.symtab`'s `.strtab`).
        var link: Int
    }

    /// The whole file, mapped.
    let bytes: UnsafeRawBufferPointer
    /// The sections, in file order; empty when the header is unreadable.
    private(set) var sections: [Section] = []
    /// The page-aligned address of the first loaded segment: what the
    /// loader maps at the module's load base, where stack traces count
    /// their offsets from (0 for a position-independent executable).
    private(set) var firstLoadAddress: UInt64 = 0

    /// Why a file could not be read as ELF.
    enum OpenError: Error, Equatable {
        case unreadable(String)
        case notELF
    }

    /// Maps the file at `path` and reads its section headers.
    static func mapping(_ path: String) -> Result<ELFFile, OpenError> {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable("not a regular file")) }
        let size = Int(status.st_size)
        guard size >= 64 else { return .failure(.notELF) }
        guard let memory = mmap(nil, size, PROT_READ, MAP_PRIVATE, file, 0), memory != MAP_FAILED else {
            return .failure(.unreadable(String(cString: strerror(errno))))
        }
        let elf = ELFFile(bytes: UnsafeRawBufferPointer(start: memory, count: size))
        guard elf.readHeaders() else { return .failure(.notELF) }
        return .success(elf)
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// The first section named `name`, if the file has it.
    func section(named name: String) -> Section? {
        sections.first { $0.name == name }
    }

    /// The ELF address of a place `offset` bytes past the module's load
    /// base (as `backtrace_symbols` and the Swift runtime print it).
    func address(atOffset offset: UInt64) -> UInt64 {
        offset &+ firstLoadAddress
    }

    /// Reads the ELF header, the program headers (for the first loaded
    /// segment) and the section headers; false when it is not 64-bit,
    /// little-endian ELF.
    private func readHeaders() -> Bool {
        var header = ByteCursor(bytes)
        guard header.u32() == 0x464C_457F, header.u8() == 2, header.u8() == 1 else { return false }
        header.seek(to: 0x20)
        let programHeaders = header.u64(), sectionHeaders = header.u64()
        header.seek(to: 0x36)
        let programEntrySize = Int(header.u16()), programCount = Int(header.u16())
        let sectionEntrySize = Int(header.u16()), sectionCount = Int(header.u16())
        let namesIndex = Int(header.u16())
        guard !header.isBroken else { return false }

        let pageMask: UInt64 = ~0xFFF
        for index in 0..<programCount where programEntrySize >= 56 {
            var entry = ByteCursor(bytes, at: Self.offset(programHeaders, index, programEntrySize))
            let type = entry.u32()
            entry.skip(12)
            let address = entry.u64()
            if entry.isBroken { break }
            if type == 1 {  // PT_LOAD
                firstLoadAddress = address & pageMask
                break
            }
        }

        var raw: [(name: UInt32, section: Section)] = []
        for index in 0..<sectionCount where sectionEntrySize >= 64 {
            var entry = ByteCursor(bytes, at: Self.offset(sectionHeaders, index, sectionEntrySize))
            let name = entry.u32(), type = entry.u32()
            entry.skip(8)
            let address = entry.u64(), offset = entry.u64(), size = entry.u64()
            let link = Int(entry.u32())
            if entry.isBroken { break }
            // SHT_NOBITS (.bss) has no bytes in the file; a section that
            // claims bytes past the file's end is left empty.
            let fits = type != 8 && offset <= UInt64(bytes.count) && size <= UInt64(bytes.count) - offset
            let span = fits ? UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset + size)]) : UnsafeRawBufferPointer(rebasing: bytes[0..<0])
            raw.append((name, Section(name: "", type: type, address: address, bytes: span, link: link)))
        }
        let names = namesIndex < raw.count ? raw[namesIndex].section.bytes : UnsafeRawBufferPointer(rebasing: bytes[0..<0])
        sections = raw.map { name, section in
            var section = section
            var cursor = ByteCursor(names, at: Int(name))
            section.name = cursor.cString() ?? ""
            return section
        }
        return true
    }

    /// Where the `index`th table entry starts, or -1 (which breaks a
    /// cursor) when that is past any file.
    private static func offset(_ table: UInt64, _ index: Int, _ entrySize: Int) -> Int {
        let (end, overflow) = table.addingReportingOverflow(UInt64(index * entrySize))
        return overflow || end > UInt64(Int.max) ? -1 : Int(end)
    }
}
