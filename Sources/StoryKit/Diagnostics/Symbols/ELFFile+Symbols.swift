extension ELFFile {
    /// A function in the symbol table: its (mangled) name and the
    /// addresses its code takes.
    struct Symbol: Equatable {
        var name: String
        var address: UInt64
        var size: UInt64
    }

    /// The function each address lies in, by address; an address that no
    /// function symbol covers is left out.
    ///
    /// Reads `.symtab` (or `.dynsym` in a stripped file) once for all the
    /// addresses: a crash's few frames, so no index is built.
    func functions(containing addresses: [UInt64]) -> [UInt64: Symbol] {
        guard !addresses.isEmpty,
            let table = section(named: ".symtab") ?? section(named: ".dynsym"),
            table.link < sections.count
        else { return [:] }
        let names = sections[table.link].bytes
        var found: [UInt64: (address: UInt64, size: UInt64, name: UInt32)] = [:]
        var entry = ByteCursor(table.bytes)
        // Each entry is 24 bytes: name, info, other, section index, value, size.
        while table.bytes.count - entry.offset >= 24 {
            let name = entry.u32()
            let type = entry.u8() & 0xF
            entry.skip(3)
            let address = entry.u64(), size = entry.u64()
            guard type == 2, size > 0 else { continue }  // STT_FUNC
            for wanted in addresses where wanted >= address && wanted - address < size {
                // Aliases share an address: the first wins, as readelf lists them.
                if found[wanted] == nil { found[wanted] = (address, size, name) }
            }
        }
        return found.compactMapValues { function in
            var cursor = ByteCursor(names, at: Int(function.name))
            guard let name = cursor.cString(), !name.isEmpty else { return nil }
            return Symbol(name: name, address: function.address, size: function.size)
        }
    }
}
