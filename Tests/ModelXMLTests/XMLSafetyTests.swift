import Foundation
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile XML: entity declarations are refused before anything is expanded or fetched, and
/// external DTDs are never loaded. Serialized, so that the time and memory bounds (generous:
/// 10 s, 512 MB) measure one parse at a time, not the suite's own tests competing.
@Suite(.serialized)
struct XMLSafetyTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        """
    static let body = """
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="A" representedClassName="A" syncable="YES">
                <attribute name="x" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    func read(_ bytes: [UInt8]) -> (ModelVersion?, [Diagnostic]) {
        ModelReader().readVersion(contents: bytes, name: "A", path: "A.xcdatamodel/contents")
    }

    @Test func anInternalEntityDeclarationIsRefusedWhereItIsDeclared() throws {
        let marked = MarkedText(
            """
            \(Self.header)
            <!DOCTYPE model [1️⃣<!ENTITY x "y">]>
            \(Self.body)
            """)
        let (version, diagnostics) = read(marked.bytes)
        #expect(version == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(diagnostic.code == "X003")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location == marked.location(of: "1️⃣"))
        #expect(diagnostic.message.contains("'x'"))
    }

    @Test func aBillionLaughsBombIsRefusedFastAndInBoundedMemory() throws {
        // Ten levels of ten references: 10^10 copies of "lol" if anything expanded them.
        var declarations = "<!ENTITY lol0 \"lol\">\n"
        for level in 1...10 {
            declarations += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level - 1);", count: 10))\">\n"
        }
        let xml = """
            \(Self.header)
            <!DOCTYPE model [
            \(declarations)]>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="&lol10;" representedClassName="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String" defaultValueString="&lol10;"/>
                </entity>
            </model>
            """
        let memoryBefore = Self.residentBytes()
        let clock = ContinuousClock()
        let start = clock.now
        let (version, diagnostics) = read(Array(xml.utf8))
        let elapsed = clock.now - start
        let memoryAfter = Self.residentBytes()

        #expect(version == nil)
        #expect(diagnostics.map(\.code) == ["X003"])
        // Generous bounds, since other tests run in this process at the same time: expanding
        // the bomb would take 30 GB and minutes. The tight timing is measured in Benchmarks/.
        #expect(elapsed < .seconds(10))
        let before = try #require(memoryBefore, "resident memory is readable on Linux")
        let growth = try #require(memoryAfter) - before
        #expect(growth < 512 << 20, "resident memory grew by \(growth) bytes")
    }

    @Test func anExternalEntityIsRefusedAndTheFileNeverAppears() throws {
        let secret = try #require(try? String(contentsOfFile: "/etc/passwd", encoding: .utf8))
        let firstLine = try #require(secret.split(separator: "\n").first.map(String.init))
        let xml = """
            \(Self.header)
            <!DOCTYPE model [
            <!ENTITY xxe SYSTEM "file:///etc/passwd">
            ]>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" representedClassName="&xxe;" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String" defaultValueString="&xxe;"/>
                </entity>
            </model>
            """
        let (version, diagnostics) = read(Array(xml.utf8))
        #expect(version == nil)
        #expect(diagnostics.map(\.code) == ["X003"])
        let texts = diagnostics.flatMap { [$0.message] + $0.notes.map(\.message) }
        #expect(!texts.contains { $0.contains(firstLine) })
    }

    @Test func anExternalDTDIsNotFetchedAndTheDocumentStillReads() throws {
        let xml = """
            \(Self.header)
            <!DOCTYPE model SYSTEM "http://127.0.0.1:9/x.dtd">
            \(Self.body)
            """
        let clock = ContinuousClock()
        let start = clock.now
        let (version, diagnostics) = read(Array(xml.utf8))
        // Generous: a fetch of the DTD would hang on the closed port far longer.
        #expect(clock.now - start < .seconds(10))
        #expect(diagnostics.isEmpty)
        #expect(version?.entities.map(\.name) == ["A"])
    }

    @Test(.timeLimit(.minutes(1)))
    func nothingConnectsToTheServerADocumentNames() throws {
        let listener = try LoopbackListener()
        let url = "http://127.0.0.1:\(listener.port)/x.dtd"
        let external = """
            \(Self.header)
            <!DOCTYPE model SYSTEM "\(url)">
            \(Self.body)
            """
        let (version, diagnostics) = read(Array(external.utf8))
        #expect(diagnostics.isEmpty)
        #expect(version != nil)

        // The out-of-band variant: a parameter entity that would fetch a remote DTD.
        let parameter = """
            \(Self.header)
            <!DOCTYPE model [
            <!ENTITY % remote SYSTEM "\(url)">
            %remote;
            ]>
            \(Self.body)
            """
        let (refused, refusal) = read(Array(parameter.utf8))
        #expect(refused == nil)
        #expect(refusal.map(\.code) == ["X003"])

        #expect(!listener.hasPendingConnection())
    }

    /// The process's resident memory, where the system tells it (`/proc/self/status` on Linux).
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            // "VmRSS:\t   12345 kB"
            let fields = line.split { $0 == " " || $0 == "\t" }
            return fields.count >= 2 ? Int(fields[1]).map { $0 * 1024 } : nil
        }
        return nil
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the system picks, to see whether anything
/// tried to connect.
final class LoopbackListener {
    struct Failure: Error {
        var call: String
        var code: Int32
    }

    let descriptor: Int32
    let port: UInt16

    init() throws {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0
                    && listen(descriptor, 8) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw Failure(call: "bind/listen", code: code)
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether a connection is waiting to be accepted.
    func hasPendingConnection() -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0 && request.revents & Int16(POLLIN) != 0
    }

    deinit {
        close(descriptor)
    }
}
