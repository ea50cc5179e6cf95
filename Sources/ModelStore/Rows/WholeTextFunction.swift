import Foundation
import GRDB
import GRDBSQLite

/// An SQL function whose text arguments and text result keep all their bytes, U+0000 included,
/// as `WholeText` keeps a column's: GRDB's `DatabaseFunction` reads an argument up to its first
/// NUL (`String(cString:)`) and returns text up to it (`sqlite3_result_text(…, -1, …)`), so the
/// function would see, and answer for, a shorter string than the store holds. Blobs, numbers
/// and NULL pass as GRDB passes them; a thrown error is the call's SQL error, as in GRDB.
package struct WholeTextFunction: Sendable {
    /// The function's body: its arguments in, its result out (nil for NULL).
    package typealias Body = @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?

    let name: String
    let argumentCount: Int?
    let isPure: Bool
    let body: Body

    /// A function `name` of `argumentCount` arguments (nil: any number); `pure` when its result
    /// depends on its arguments only, which lets SQLite reuse it.
    package init(_ name: String, argumentCount: Int? = nil, pure: Bool = false, body: @escaping Body) {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.body = body
    }

    /// Registers the function on `db` (`sqlite3_create_function_v2`), replacing one of the same
    /// name and argument count; SQLite frees the body when it drops the function.
    /// - Throws: `DatabaseError` with SQLite's code when SQLite refuses the registration.
    package func install(in db: Database) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "cannot add the function \(name) to a closed connection")
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let flags = SQLITE_UTF8 | (isPure ? SQLITE_DETERMINISTIC : 0)
        // On failure SQLite calls the destructor itself, so the box is released either way.
        let code = sqlite3_create_function_v2(
            connection, name, argumentCount.map { CInt(clamping: $0) } ?? -1, flags, box, Self.call, nil, nil, Self.release)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    /// The body, kept alive as SQLite's user data of the function.
    private final class Box {
        let body: Body
        init(_ body: @escaping Body) { self.body = body }
    }

    /// SQLite's `xFunc`: reads the arguments whole, runs the body, sets its result or error.
    private static let call: @convention(c) (OpaquePointer?, CInt, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, count, values in
        guard let data = sqlite3_user_data(context) else { return sqlite3_result_error(context, "the function has no body", -1) }
        let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
        let arguments = values.map { values in (0..<Int(max(count, 0))).map { argument(values[$0]) } } ?? []
        do {
            result(try box.body(arguments), in: context)
        } catch let error as DatabaseError {
            if let message = error.message { sqlite3_result_error(context, message, -1) }
            sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
        } catch {
            sqlite3_result_error(context, "\(error)", -1)
        }
    }

    /// SQLite's destructor of the user data: releases the body.
    private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        if let data { Unmanaged<Box>.fromOpaque(data).release() }
    }

    /// An argument: text with all its bytes (invalid UTF-8 repaired, as GRDB repairs it), the
    /// rest as GRDB reads it.
    private static func argument(_ value: OpaquePointer?) -> DatabaseValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return sqlite3_value_int64(value).databaseValue
        case SQLITE_FLOAT:
            return sqlite3_value_double(value).databaseValue
        case SQLITE_TEXT:
            // The text first, then its length: asking for the text may convert it, which changes the length.
            let start = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            guard let start, count > 0 else { return "".databaseValue }
            return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self).databaseValue
        case SQLITE_BLOB:
            let start = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            guard let start, count > 0 else { return Data().databaseValue }
            return Data(bytes: start, count: count).databaseValue
        default:
            return .null
        }
    }

    /// Sets `value` as the call's result: text with its byte count, the rest as GRDB sets it.
    private static func result(_ value: (any DatabaseValueConvertible)?, in context: OpaquePointer?) {
        switch value?.databaseValue.storage ?? .null {
        case .null:
            sqlite3_result_null(context)
        case .int64(let number):
            sqlite3_result_int64(context, number)
        case .double(let number):
            sqlite3_result_double(context, number)
        case .string(var text):
            text.withUTF8 { bytes in
                // An empty buffer may have no address, which SQLite would take as NULL rather than "".
                guard let start = bytes.baseAddress else { return sqlite3_result_text(context, "", 0, WholeText.transient) }
                start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(context, $0, sqlite3_uint64(bytes.count), WholeText.transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { sqlite3_result_blob64(context, $0.baseAddress, sqlite3_uint64($0.count), WholeText.transient) }
        }
    }
}
