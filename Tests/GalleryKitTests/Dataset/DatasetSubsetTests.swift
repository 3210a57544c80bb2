import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// `--where` conditions (parsing, numbers against text) and the `.npy` uid list's header checks, on
/// hand-made values; the CLI tests read a file numpy wrote.
@Suite struct DatasetSubsetTests {
    @Test func conditionsCompareNumbersAsNumbersAndTextAsText() throws {
        let atLeast = try DatasetCondition(parsing: "width>=256")
        #expect(atLeast.column == "width" && atLeast.op == .atLeast && atLeast.value == "256")
        #expect(atLeast.holds(.int(256)) && atLeast.holds(.double(300.5)) && atLeast.holds(.string("1e3")))
        #expect(!atLeast.holds(.int(255)) && !atLeast.holds(.string("wide")) && !atLeast.holds(.null))
        let equal = try DatasetCondition(parsing: "status == 'success'")
        #expect(equal.holds(.string("success")) && !equal.holds(.string("failed_to_download")))
        // 10 and 10.0 are the same number; "010" is the number 10 too.
        let ten = try DatasetCondition(parsing: "n==10")
        #expect(ten.holds(.int(10)) && ten.holds(.double(10)) && ten.holds(.string("010")) && !ten.holds(.int(11)))
        let notTrue = try DatasetCondition(parsing: "nsfw!=true")
        #expect(notTrue.holds(.bool(false)) && !notTrue.holds(.bool(true)))
        #expect(try DatasetCondition(parsing: "x<-1.5").holds(.double(-2)))
        #expect(try DatasetCondition(parsing: "caption==\"a <b>\"").holds(.string("a <b>")))
        for bad in ["width", "width=>3", ">=3", "width>=big", "a b==c", "w<"] {
            #expect(throws: DatasetError.self, "\(bad)") { try DatasetCondition(parsing: bad) }
        }
    }

    /// A `.npy` file as numpy's format document describes it: magic, version, little-endian header length,
    /// the dict, padding to a multiple of 64 bytes, then the data.
    static func npy(descr: String, shape: String, values: [(UInt64, UInt64)], major: UInt8 = 1, cut: Int = 0) -> [UInt8] {
        var header = Array("{'descr': \(descr), 'fortran_order': False, 'shape': \(shape), }".utf8)
        let prefix = major == 1 ? 10 : 12
        while (prefix + header.count + 1) % 64 != 0 { header.append(0x20) }
        header.append(0x0A)
        var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [major, 0]
        let length = header.count
        bytes += major == 1 ? [UInt8(length & 0xFF), UInt8(length >> 8)] : [UInt8(length & 0xFF), UInt8(length >> 8), 0, 0]
        bytes += header
        for (high, low) in values {
            withUnsafeBytes(of: high.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: low.littleEndian) { bytes += $0 }
        }
        return Array(bytes.dropLast(cut))
    }

    @Test func aUIDListIsReadAndMatchedByBothHalves() throws {
        let dir = try TempDirectory(prefix: "uids")
        let descr = "[('f0', '<u8'), ('f1', '<u8')]"
        let values: [(UInt64, UInt64)] = [(1, 2), (0xFFFF_FFFF_FFFF_FFFF, 7), (1, 1)]
        for major: UInt8 in [1, 3] {
            let path = try dir.write(Self.npy(descr: descr, shape: "(3,)", values: values, major: major), to: "v\(major).npy")
            let list = try UIDList(npy: path)
            #expect(list.uids.count == 3 && list.uids == list.uids.sorted())
            #expect(list.contains(try #require(UIDList.UID(hex: "00000000000000010000000000000002"))))
            #expect(list.contains(try #require(UIDList.UID(hex: "ffffffffffffffff0000000000000007"))))
            #expect(!list.contains(try #require(UIDList.UID(hex: "00000000000000020000000000000001"))), "halves swapped")
        }
        #expect(UIDList.UID(hex: "123") == nil && UIDList.UID(hex: String(repeating: "g", count: 32)) == nil)
        let refused: [(String, [UInt8])] = [
            ("float", Self.npy(descr: "'<f8'", shape: "(3,)", values: [])),
            ("2-d", Self.npy(descr: descr, shape: "(3, 2)", values: values)),
            ("cut", Self.npy(descr: descr, shape: "(3,)", values: values, cut: 5)),
            ("text", Array("uid\n0123\n".utf8)),
        ]
        for (name, bytes) in refused {
            let path = try dir.write(bytes, to: "\(name).npy")
            #expect(throws: DatasetError.self, "\(name)") { try UIDList(npy: path) }
        }
    }
}
