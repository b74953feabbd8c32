import Foundation
@testable import OMDbKit
import Testing
import TestSupport

@Suite struct QuotaLedgerTests {
    /// 2026-11-22 23:59:58 UTC.
    static let lateEvening = Date(timeIntervalSince1970: 1_795_391_998)

    @Test func countsPerKeyAcrossLedgersSharingTheFolder() async {
        await withTemporaryFolder { folder in
            let first = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let second = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let other = QuotaLedger(folder: folder, apiKey: "key-two-456")
            await withTaskGroup(of: Void.self) { group in
                for n in 0..<60 { group.addTask { (n.isMultiple(of: 2) ? first : second).recordRequestSent() } }
            }
            other.recordRequestSent()
            // Each ledger writes its own count as it reads: then both are in the file.
            _ = first.usage()
            _ = second.usage()
            #expect(first.usage().sent == 60)
            #expect(second.usage().sent == 60)
            #expect(other.usage().sent == 1)
        }
    }

    /// Two programs sharing a key near its limit never take more places than it between them:
    /// each place is checked against, and counted in, the file they share.
    @Test func twoProgramsNearTheLimitShareItExactly() async {
        await withTemporaryFolder { folder in
            // Two programs: ledgers of their own, writes of their own.
            let first = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 15)
            let second = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 15)
            _ = first.usage()
            _ = second.usage()
            let granted = await withTaskGroup(of: Bool.self) { group in
                for n in 0..<30 { group.addTask { (n.isMultiple(of: 2) ? first : second).reserve() != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(granted == 15)
            #expect(first.reserve() == nil)
            #expect(second.reserve() == nil)
            #expect(first.usage().sent == 15)
        }
    }

    /// A count that cannot be kept (its folder cannot be made: a file stands where it would be)
    /// is advice lost, not a refusal: near the limit, places come from this program's own view.
    @Test func nearTheLimitACountThatCannotBeKeptRefusesNothing() async throws {
        try await withTemporaryFolder { folder in
            let blocker = folder.appendingPathComponent("state")
            try Data("not a folder".utf8).write(to: blocker)
            let ledger = QuotaLedger(folder: blocker.appendingPathComponent("movies"), apiKey: "key-one-123", dailyLimit: 3)
            let places = (0..<5).map { _ in ledger.reserve() }
            #expect(places.compactMap { $0 }.count == 3)
        }
    }

    @Test func aPlaceTakenNearTheLimitAndGivenBackIsTakenOffTheCount() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 15)
            let reservation = ledger.reserve()
            #expect(reservation != nil)
            #expect(ledger.usage().sent == 1)
            if let reservation { ledger.release(reservation) }
            #expect(ledger.usage().sent == 0)
            #expect(QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 15).usage().sent == 0)
        }
    }

    /// A program that ends (SIGTERM during a page) counts its requests still in flight as sent,
    /// without waiting for them (a count may be too high, never too low): their late commit or
    /// release changes nothing, and a request that starts after counts at once.
    @Test func endingCountsTheRequestsInFlightOnceWithoutWaiting() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let places = (0..<3).compactMap { _ in ledger.reserve() }
            ledger.commit(places[0])
            ledger.finish()
            let reread = QuotaLedger(folder: folder, apiKey: "key-one-123")
            #expect(reread.usage().sent == 3)
            ledger.commit(places[1])
            ledger.release(places[2])
            #expect(ledger.reserve() != nil)
            ledger.finish()
            #expect(reread.usage().sent == 4)
        }
    }

    /// The count is kept exactly in memory when its file cannot be written (a read-only folder): said
    /// once, the limit holds by this program's own count (from 900 of 1,000, exactly 100 places),
    /// `usage` says the file is not kept, and the count is written once the file can be again.
    @Test(.enabled(if: ReadOnlyFolder.available, "needs bind mounts (root with CAP_SYS_ADMIN), as CI has"))
    func aCountThatCannotBeWrittenIsKeptInMemoryAndHoldsTheLimit() async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 1_000)
            try QuotaLedgerFileTests.plant("\(QuotaLedger.utcDay(Date())) 900 0", for: ledger)
            let granted = try await ReadOnlyFolder.with(folder) { () -> Int in
                var granted = 0
                while let place = ledger.reserve(), granted < 200 {
                    ledger.commit(place)
                    granted += 1
                }
                let usage = ledger.usage(checkingTheFile: true)
                #expect(usage.sent == 1_000 && usage.unkept != nil)
                #expect(ledger.takeNotice()?.contains("cannot be written") == true)
                #expect(ledger.takeNotice() == nil)
                return granted
            }
            #expect(granted == 100)
            #expect(ledger.usage(checkingTheFile: true).unkept == nil)
            #expect(QuotaLedger(folder: folder, apiKey: "key-one-123").usage().sent == 1_000)
        }
    }

    /// A process ended in the middle of writing its count leaves the write's temporary file (seen
    /// after SIGTERMs during a page): the next count removes it, and nothing of another key's or
    /// another file's.
    @Test func aCountRemovesTheTemporaryFilesOfWritesCutShort() async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let other = QuotaLedger(folder: folder, apiKey: "key-two-456")
            let name = ledger.file.lastPathComponent
            let left = [".\(name).3qn0hlnklvo7p.tmp", ".\(name).2atxp3s7e4y2r.tmp"]
            let kept = [".\(other.file.lastPathComponent).3qn0hlnklvo7p.tmp", ".\(name).tmp", "\(name).3qn0hlnklvo7p.tmp", ".posters-host.x1.tmp"]
            for planted in left + kept { try Data("2026-11-27 5 0\n".utf8).write(to: folder.appendingPathComponent(planted)) }
            ledger.recordRequestSent()
            #expect(ledger.usage().sent == 1)
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            #expect(names.isDisjoint(with: left))
            #expect(names.isSuperset(of: kept))
        }
    }

    /// A page sends twenty requests at once: counting them must not cost twenty locked
    /// read-rename cycles on the disk while the page loads.
    @Test func requestsCountedWhileAWriteWaitsShareOneWrite() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let release = DispatchSemaphore(value: 0)
            _ = ledger.estimatedUsage()   // today's file read first: the lane is held next
            ledger.lane.async { release.wait() }
            for _ in 0..<20 { ledger.recordRequestSent() }
            release.signal()
            #expect(ledger.usage().sent == 20)
            #expect(ledger.fileWrites.load(ordering: .relaxed) == 1)
            ledger.recordRequestSent()
            #expect(ledger.usage().sent == 21)
            #expect(ledger.fileWrites.load(ordering: .relaxed) == 2)
        }
    }

    @Test(arguments: [-86_400.0 * 365 * 70, -1, 0, 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_400, 1_795_391_998])
    func theUTCDayIsTheCalendarsDay(_ seconds: Double) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var dates = [Date(timeIntervalSince1970: seconds)]
        var generator = SplitMix64(seed: UInt64(bitPattern: Int64(seconds)))
        for _ in 0..<200 { dates.append(Date(timeIntervalSince1970: seconds + Double(generator.next() % 40_000_000_000) / 10 - 2_000_000_000)) }
        for date in dates {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let expected = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            #expect(QuotaLedger.utcDay(date) == expected, "\(date.timeIntervalSince1970)")
        }
    }

    @Test func theKeyIsNeverWritten() async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "very-secret-key-99")
            ledger.recordRequestSent()
            _ = ledger.usage()
            #expect(!files(in: folder).isEmpty)
            for name in files(in: folder) {
                #expect(!name.contains("very-secret"))
                let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
                #expect(!text.contains("very-secret-key-99"))
            }
        }
    }

    @Test func theCountStartsAgainAtTheUTCDayBoundary() async {
        await withTemporaryFolder { folder in
            let clock = TestClock(Self.lateEvening)
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", now: clock.now)
            for _ in 0..<3 { ledger.recordRequestSent() }
            #expect(ledger.usage() == QuotaUsage(day: "2026-11-22", sent: 3, limit: 1_000))
            clock.advance(1)
            #expect(ledger.usage().sent == 3)
            clock.advance(2)
            #expect(ledger.usage() == QuotaUsage(day: "2026-11-23", sent: 0, limit: 1_000))
            ledger.recordRequestSent()
            #expect(ledger.usage().sent == 1)
        }
    }

    /// The live status line is redrawn on the main actor as a page fills: it reads no file, yet
    /// counts every request this process sent, and another process's from this one's next write.
    @Test func theEstimateReadsNoFileAndCountsEveryProcessFromTheNextWrite() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let other = QuotaLedger(folder: folder, apiKey: "key-one-123")
            for _ in 0..<5 { other.recordRequestSent() }
            other.lane.sync {}
            #expect(ledger.estimatedUsage().sent == 5)   // nothing of today known yet: one read
            let reads = ledger.fileReads.load(ordering: .relaxed), writes = ledger.fileWrites.load(ordering: .relaxed)
            for n in 1...20 {
                ledger.recordRequestSent()
                // Exact while the counts are on their way to the file, being written, or written.
                #expect(ledger.estimatedUsage().sent == 5 + n)
            }
            ledger.lane.sync {}
            #expect(ledger.estimatedUsage().sent == 25)
            // The only reads are the writes' own (each reads the file under the lock first).
            #expect(ledger.fileReads.load(ordering: .relaxed) - reads == ledger.fileWrites.load(ordering: .relaxed) - writes)
            for _ in 0..<3 { other.recordRequestSent() }
            other.lane.sync {}
            #expect(ledger.estimatedUsage().sent == 25)   // not seen yet
            ledger.recordRequestSent()
            ledger.lane.sync {}
            #expect(ledger.estimatedUsage().sent == 29)
            #expect(ledger.usage().sent == 29)
        }
    }

    @Test func warnsOnceADayAtNinetyPercentWhateverTheProcess() async {
        await withTemporaryFolder { folder in
            let clock = TestClock(Self.lateEvening.addingTimeInterval(-3_600))
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 10, now: clock.now)
            for _ in 0..<8 { ledger.recordRequestSent() }
            #expect(ledger.warningDue() == nil)
            ledger.recordRequestSent()
            #expect(ledger.warningDue() == QuotaUsage(day: "2026-11-22", sent: 9, limit: 10))
            #expect(ledger.warningDue() == nil)
            ledger.recordRequestSent()
            #expect(ledger.warningDue() == nil)
            // Another process (another ledger on the same file) was warned already.
            #expect(QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 10, now: clock.now).warningDue() == nil)
            // A new day, a new warning.
            clock.advance(7_200)
            for _ in 0..<9 { ledger.recordRequestSent() }
            #expect(ledger.warningDue()?.day == "2026-11-23")
        }
    }

    @Test func noLimitMeansNoWarning() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: nil)
            for _ in 0..<5 { ledger.recordRequestSent() }
            #expect(ledger.warningDue() == nil)
            #expect(ledger.usage().description == "requests today: 5, no daily limit (UTC day)")
        }
    }

    @Test func anUnreadableFileCountsFromZero() async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            try Data("not a count\n".utf8).write(to: ledger.file)
            #expect(ledger.usage().sent == 0)
            ledger.recordRequestSent()
            #expect(ledger.usage().sent == 1)
        }
    }

    @Test(arguments: [(0, "0"), (37, "37"), (1_000, "1,000"), (100_000, "100,000"), (1_234_567, "1,234,567")])
    func numbersAreGroupedByThousands(number: Int, text: String) {
        #expect(QuotaUsage.grouped(number) == text)
    }

    @Test func theStatusLineSaysTheDayIsUTC() {
        #expect(QuotaUsage(day: "2026-11-22", sent: 37, limit: 1_000).description == "requests today: 37 of 1,000 (UTC day)")
    }
}


/// What a damaged or planted ledger file cannot do.
@Suite struct QuotaLedgerFileTests {
    static func plant(_ text: String, for ledger: QuotaLedger) throws {
        try FileManager.default.createDirectory(at: ledger.folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: ledger.file)
    }

    /// `9223372036854775807` crashed every search (arithmetic overflow) until the UTC day turned.
    @Test(arguments: ["9223372036854775807", "100000001", "99999999999999999999999"])
    func aHugeCountIsSetAsideOnceAndCountingGoesOn(count: String) async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            try Self.plant("\(QuotaLedger.utcDay(Date())) \(count) 0\n", for: ledger)
            ledger.recordRequestSent()
            ledger.lane.sync {}
            #expect(ledger.usage().sent == 1)
            let notice = try #require(ledger.takeNotice())
            #expect(notice.hasPrefix("Warning: the daily request count in \(ledger.file.path) was damaged (a count of "))
            #expect(ledger.takeNotice() == nil)
            #expect(FileManager.default.fileExists(atPath: ledger.damagedFile.path))
            #expect(ledger.warningDue() == nil)
        }
    }

    /// A day after today, or a third field other than 0 or 1, is no record this tool wrote: set
    /// aside and said, as a huge count is, not silently taken (a future day) or read as warned.
    @Test(arguments: [("2999-01-01 1000 0", "dated 2999-01-01, after today"), ("TODAY 5 -1", "not a count"), ("TODAY 5 2", "not a count")])
    func aRecordDatedAfterTodayOrWarnedOtherwiseIsDamaged(line: String, why: String) async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            try Self.plant(line.replacingOccurrences(of: "TODAY", with: QuotaLedger.utcDay(Date())) + "\n", for: ledger)
            #expect(ledger.usage().sent == 0)
            #expect(ledger.takeNotice()?.contains("was damaged (\(why)") == true)
            #expect(FileManager.default.fileExists(atPath: ledger.damagedFile.path))
        }
    }

    @Test func quotaReadsADamagedFileAsZeroNotAHugeCount() async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            try Self.plant("\(QuotaLedger.utcDay(Date())) 9223372036854775807 0\n", for: ledger)
            #expect(ledger.usage().sent == 0)
            #expect(ledger.takeNotice()?.contains("9,223,372,036,854,775,807") == true)
            #expect(ledger.estimatedUsage().sent == 0)
        }
    }

    @Test func countsStopAtTheMaximumInsteadOfOverflowing() {
        #expect(QuotaLedger.adding(.max, 1) == QuotaLedger.maximumCount)
        #expect(QuotaLedger.adding(QuotaLedger.maximumCount, 5) == QuotaLedger.maximumCount)
        #expect(QuotaLedger.adding(3, 4) == 7)
    }

    /// The temporary file was `.requests-HASH-PID.tmp`, opened with O_CREAT|O_TRUNC: a symlink
    /// planted there had its target overwritten, and became the ledger.
    @Test func aSymlinkPlantedAtTheOldTemporaryNameIsNotFollowed() async throws {
        try await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123")
            let victim = folder.appendingPathComponent("victim")
            try Data("precious".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(".requests-\(ledger.keyHash)-\(getpid()).tmp"),
                                                       withDestinationURL: victim)
            ledger.recordRequestSent()
            ledger.lane.sync {}
            #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
            #expect(try FileManager.default.attributesOfItem(atPath: ledger.file.path)[.type] as? FileAttributeType == .typeRegular)
            #expect(ledger.usage().sent == 1)
        }
    }
}

/// The limit as a reservation taken before a request is sent.
@Suite struct QuotaReservationTests {
    /// Fifty requests starting at once with five places left: five go, and the count never passes the limit.
    @Test func concurrentReservationsNeverPassTheLimit() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 5)
            let granted = await withTaskGroup(of: QuotaLedger.Reservation?.self) { group in
                for _ in 0..<50 { group.addTask { ledger.reserve() } }
                return await group.reduce(into: [QuotaLedger.Reservation]()) { if let r = $1 { $0.append(r) } }
            }
            #expect(granted.count == 5)
            #expect(ledger.placesLeft() == 0)
            for reservation in granted { ledger.commit(reservation) }
            #expect(ledger.usage().sent == 5)
            #expect(ledger.reserve() == nil)
        }
    }

    /// A request that never left gives its place back and is not counted.
    @Test func aReleasedPlaceIsNotCountedAndCanBeTakenAgain() async {
        await withTemporaryFolder { folder in
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 2)
            let first = ledger.reserve(), second = ledger.reserve()
            #expect(first != nil && second != nil)
            #expect(ledger.reserve() == nil)
            if let first { ledger.release(first) }
            #expect(ledger.placesLeft() == 1)
            let again = ledger.reserve()
            #expect(again != nil)
            if let second { ledger.commit(second) }
            if let again { ledger.commit(again) }
            #expect(ledger.usage().sent == 2)
            #expect(ledger.placesLeft() == 0)
        }
    }

    /// Another process's count, read from the file, is part of what is left.
    @Test func anotherProcessCountIsPartOfTheLimit() async {
        await withTemporaryFolder { folder in
            let other = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 3)
            for _ in 0..<3 { other.recordRequestSent() }
            other.lane.sync {}
            let ledger = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: 3)
            #expect(ledger.reserve() == nil)
            let unlimited = QuotaLedger(folder: folder, apiKey: "key-one-123", dailyLimit: nil)
            #expect(unlimited.reserve() != nil)
        }
    }
}

extension QuotaLedger {
    /// One request counted as the client counts it: its place reserved, then the request sent.
    func recordRequestSent() {
        if let place = reserve() { commit(place) }
    }
}
