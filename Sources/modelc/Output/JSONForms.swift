import Foundation

/// The JSON forms of the values JSON has no exact form for, as `fetch --json` prints them and
/// `import` reads them back to the same bits: a date as RFC 3339 UTC text whose fractional
/// seconds have as many digits as the stored double needs, and a non-finite number as the
/// string `"NaN"`, `"Infinity"` or `"-Infinity"`.
///
/// A date's text is its whole seconds (a proleptic Gregorian date and time, no leap seconds)
/// and a fraction; read back, the stored double is `Double(whole seconds) + Double("0.<fraction>")`.
/// The fraction printed is the shortest of at least three digits for which that sum is the
/// stored double, so a date with whole milliseconds prints as before (`.250Z`).
enum JSONForms {
    // MARK: - Non-finite numbers

    /// The name of a non-finite double; nil for a finite one.
    static func name(ofNonFinite number: Double) -> String? {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return nil
    }

    /// The double a non-finite name stands for; nil for any other text.
    static func nonFinite(named name: String) -> Double? {
        switch name {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: nil
        }
    }

    // MARK: - Dates

    /// The seconds since 1970-01-01 of 2001-01-01, the reference date stores count from.
    private static let referenceDay: Int64 = 11_323
    /// The first whole second of year 0 and of year 10000, relative to the reference date:
    /// the years four digits can write.
    private static let firstSecond = (days(year: 0, month: 1, day: 1) - referenceDay) * 86_400
    private static let endSecond = (days(year: 10_000, month: 1, day: 1) - referenceDay) * 86_400

    /// The RFC 3339 text of a date stored as `seconds` since 2001-01-01 UTC, exact to the bit;
    /// nil when no such text is exact (a non-finite value, a year outside 0–9999, a negative
    /// zero, a fraction of a second too small to write).
    static func text(ofDate seconds: Double) -> String? {
        guard seconds.isFinite else { return nil }
        let floor = seconds.rounded(.down)
        guard let whole = Int64(exactly: floor), whole >= firstSecond, whole < endSecond else { return nil }
        // Exact when |seconds| ≥ 1 (both are multiples of the same power of two below 1); between
        // -1 and 0 it may round, and then no fraction passes the check below.
        let fraction = seconds - floor
        guard let digits = fractionDigits(fraction, whole: whole, seconds: seconds) else { return nil }
        let day = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let second = whole - day * 86_400
        let (year, month, date) = civil(days: day + referenceDay)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
        return "\(yearText)-\(two(month))-\(two(date))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)).\(digits)Z"
    }

    /// The date an RFC 3339 text names (`2024-02-29T12:00:00Z`, `…:00.123456+02:00`, `t`/`z`
    /// in lower case, a zone written `+0200`), as seconds since 2001-01-01 UTC; nil when the
    /// text is not one or names no day of the calendar (February 30, hour 24, second 60).
    static func date(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var at = 0
        func number(_ count: Int) -> Int64? {
            guard at + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[at..<at + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            at += count
            return value
        }
        func take(_ characters: String) -> Bool {
            guard at < bytes.count, characters.utf8.contains(bytes[at]) else { return false }
            at += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2), take("Tt"),
            let hour = number(2), take(":"), let minute = number(2), take(":"), let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var fraction = ""
        if take(".") {
            let start = at
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
            guard at > start else { return nil }
            fraction = String(decoding: bytes[start..<at], as: UTF8.self)
        }
        var offset: Int64 = 0
        if !take("Zz") {
            guard at < bytes.count else { return nil }
            let sign: Int64 = bytes[at] == UInt8(ascii: "-") ? -1 : 1
            guard take("+-"), let hours = number(2), hours < 24 else { return nil }
            _ = take(":")
            guard let minutes = number(2), minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard at == bytes.count else { return nil }
        let whole = (days(year: year, month: month, day: day) - referenceDay) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(whole) + (fraction.isEmpty ? 0 : Double("0." + fraction) ?? 0)
    }

    /// The shortest fraction digits, at least three, for which `Double(whole) + 0.<digits>` is
    /// `seconds`: roundings of the fraction's shortest round-trip digits, longer until one is exact.
    private static func fractionDigits(_ fraction: Double, whole: Int64, seconds: Double) -> String? {
        let exact = positionalDigits(fraction)
        let padded = exact + String(repeating: "0", count: max(0, 3 - exact.count))
        for length in 3...padded.count {
            var digits = Array(padded.utf8.prefix(length))
            if length < padded.count, Array(padded.utf8)[length] >= UInt8(ascii: "5") {
                // Round up; a carry out of the first digit would make a whole second, not a fraction.
                var index = digits.count - 1
                while index >= 0, digits[index] == UInt8(ascii: "9") {
                    digits[index] = UInt8(ascii: "0")
                    index -= 1
                }
                guard index >= 0 else { continue }
                digits[index] += 1
            }
            let text = String(decoding: digits, as: UTF8.self)
            if let value = Double("0." + text), (Double(whole) + value).bitPattern == seconds.bitPattern { return text }
        }
        return nil
    }

    /// The digits after the point of `fraction` (in 0..<1) written out from its shortest
    /// round-trip text, `1.5e-05` becoming `000015`; empty for zero.
    private static func positionalDigits(_ fraction: Double) -> String {
        let text = "\(fraction)"
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let integerPart = String(mantissa[0])
        var fractionPart = mantissa.count > 1 ? String(mantissa[1]) : ""
        if fractionPart == "0" { fractionPart = "" }
        guard parts.count == 2, let exponent = Int(parts[1]), exponent < 0 else {
            return integerPart == "0" ? fractionPart : ""
        }
        // d.ddd × 10^-n: n - 1 zeros, then the digits.
        return String(repeating: "0", count: -exponent - 1) + integerPart + fractionPart
    }

    // MARK: - Calendar

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day since 1970-01-01 (Hinnant's `civil_from_days`).
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
