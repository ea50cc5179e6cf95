import Foundation
import ModelExpression

/// Tracking: each objects-did-change of the context is folded into the results, object by object
/// (the request's predicate evaluated in memory, each changed object placed by binary search), and
/// reported to the delegate as one change event.
extension FetchedResultsCore: ContextChangeHandler {
    /// What one change event does to one object of the results.
    private enum Change {
        case insert(ManagedObject, [EvaluatedValue])
        case delete(ManagedObject)
        /// A value the results are sorted or sectioned by changed: always reported as a move.
        case move(ManagedObject, [EvaluatedValue])
        /// Other values changed: the object keeps its place.
        case update(ManagedObject)
    }

    func contextDidChange(_ userInfo: [AnyHashable: Any]) {
        guard let delegate, let controller = erased, orderedSections != nil else { return }
        // A reset forgot every object: the results are fetched again, as one change event (for a
        // delegate taking differences, the difference between the IDs before and after).
        if userInfo[NSInvalidatedAllObjectsKey] != nil {
            let before = sectionNameKeyPath == nil ? fetchedObjects?.map(\.objectID) ?? [] : []
            try? performFetch()
            let after = sectionNameKeyPath == nil ? fetchedObjects?.map(\.objectID) ?? [] : []
            guard !sendsDifference(after.difference(from: before), to: delegate, controller) else { return }
            delegate.controllerWillChangeContent(controller)
            delegate.controllerDidChangeContent(controller)
            return
        }
        let changes = classify(userInfo)
        guard !changes.isEmpty else { return }
        report(apply(changes), to: delegate, controller)
    }

    /// Offers `difference` to `delegate` as Core Data does: only for a controller without sections,
    /// and only when the delegate implements `controller(_:didChangeContentWith:)`. Whether it does
    /// is learnt on the delegate's first event (the protocol's default marks that it ran: Swift cannot
    /// ask) and remembered; an empty difference is sent only then. Returns whether the delegate takes
    /// differences, so gets no other callback.
    private func sendsDifference(_ difference: CollectionDifference<ManagedObjectID>, to delegate: any FetchedResultsControllerDelegate,
                                 _ controller: FetchedResultsController<any FetchRequestResult>) -> Bool {
        guard sectionNameKeyPath == nil else { return false }
        if let probed = probedDelegate, probed === delegate {
            if delegateTakesDifferences, !difference.isEmpty { delegate.controller(controller, didChangeContentWith: difference) }
            return delegateTakesDifferences
        }
        defaultDifferenceRan = false
        delegate.controller(controller, didChangeContentWith: difference)
        probedDelegate = delegate
        delegateTakesDifferences = !defaultDifferenceRan
        return delegateTakesDifferences
    }

    /// The changes of the objects `userInfo` lists to the results.
    private func classify(_ userInfo: [AnyHashable: Any]) -> [Change] {
        func objects(_ key: String) -> [ManagedObject] {
            switch userInfo[key] {
            case let set as Set<ManagedObject>: Array(set)
            case let array as [ManagedObject]: array
            default: []
            }
        }
        let gone = Set((objects(NSDeletedObjectsKey) + objects(NSInvalidatedObjectsKey)).map(ObjectIdentifier.init))
        let context = managedObjectContext
        let evaluation = ObjectEvaluation(context)
        let predicate = try? request.predicate?.checkedNode()
        let entities = try? context.rows().entities
        var seen = Set<ObjectIdentifier>()
        var changes = [Change]()
        let listed = objects(NSInsertedObjectsKey) + objects(NSUpdatedObjectsKey) + objects(NSRefreshedObjectsKey)
            + objects(NSDeletedObjectsKey) + objects(NSInvalidatedObjectsKey)
        for object in listed where accepts(object) && seen.insert(ObjectIdentifier(object)).inserted {
            let placement = placements[ObjectIdentifier(object)]
            let kind = request.includesSubentities
                ? entities?.isKind(object.entity.name, of: request.entityName) ?? false : object.entity.name == request.entityName
            var values: [EvaluatedValue]?
            if kind, !gone.contains(ObjectIdentifier(object)), !object.isDeleted, object.managedObjectContext === context,
                (try? evaluation.matches(object, predicate)) == true
            {
                values = try? self.values(of: object, evaluation)
            }
            switch (placement, values) {
            case (nil, let values?): changes.append(.insert(object, values))
            case (_?, nil): changes.append(.delete(object))
            case (let placement?, let values?):
                if placement.values == values && placement.section.name == sectionName(values) {
                    changes.append(.update(object))
                } else {
                    changes.append(.move(object, values))
                }
            case (nil, nil): continue
            }
        }
        return changes
    }

    /// What a change event did, as the delegate is told it.
    private struct Outcome {
        var deletedSections: [(ResultsSection<ManagedObject>, Int)] = []
        var insertedSections: [(ResultsSection<ManagedObject>, Int)] = []
        var objects: [(ManagedObject, IndexPath?, FetchedResultsChangeType, IndexPath?)] = []
    }

    /// Applies `changes` to the sections: the old index paths are taken first, objects leaving or
    /// moving are taken out, objects arriving or moving are placed, sections left empty are
    /// removed, then the new index paths are taken.
    private func apply(_ changes: [Change]) -> Outcome {
        var old = [ObjectIdentifier: IndexPath]()
        var oldSections = [ObjectIdentifier: Int]()
        for change in changes {
            switch change {
            case .delete(let object), .move(let object, _), .update(let object):
                guard let path = indexPath(forObject: object), let placement = placements[ObjectIdentifier(object)] else { continue }
                old[ObjectIdentifier(object)] = path
                oldSections[ObjectIdentifier(placement.section)] = path.section
            case .insert: continue
            }
        }
        var touched = [ResultsSection<ManagedObject>]()
        for change in changes {
            switch change {
            case .delete(let object), .move(let object, _):
                guard let placement = placements.removeValue(forKey: ObjectIdentifier(object)),
                    let item = itemIndex(of: object, values: placement.values, in: placement.section)
                else { continue }
                placement.section.rows.remove(at: item)
                touched.append(placement.section)
            case .insert, .update: continue
            }
        }
        var outcome = Outcome()
        var created = [ResultsSection<ManagedObject>]()
        for change in changes {
            switch change {
            case .insert(let object, let values), .move(let object, let values):
                let name = sectionName(values)
                let slot = sectionSlot(name: name, key: values[0])
                let section: ResultsSection<ManagedObject>
                if slot.found, let known = orderedSections?[slot.index] {
                    section = known
                } else {
                    section = makeSection(name, key: values[0])
                    orderedSections?.insert(section, at: slot.index)
                    created.append(section)
                }
                section.rows.insert(ResultRow(object: object, values: values), at: insertionIndex(of: values, in: section))
                placements[ObjectIdentifier(object)] = Placement(section: section, values: values)
            case .delete, .update: continue
            }
        }
        for section in touched where section.rows.isEmpty {
            guard let index = sectionIndex(of: section) else { continue }
            orderedSections?.remove(at: index)
            if let oldIndex = oldSections[ObjectIdentifier(section)] { outcome.deletedSections.append((section, oldIndex)) }
        }
        for section in created {
            guard let index = sectionIndex(of: section) else { continue }
            outcome.insertedSections.append((section, index))
        }
        invalidateObjects()
        for change in changes {
            switch change {
            case .insert(let object, _):
                outcome.objects.append((object, nil, .insert, indexPath(forObject: object)))
            case .delete(let object):
                outcome.objects.append((object, old[ObjectIdentifier(object)], .delete, nil))
            case .move(let object, _):
                // A move even where the two index paths are equal, as Core Data reports it: other
                // objects leaving or arriving in the same event may have carried the object past its
                // neighbours, so only a move keeps a table that applies the event in step.
                outcome.objects.append((object, old[ObjectIdentifier(object)], .move, indexPath(forObject: object)))
            case .update(let object):
                outcome.objects.append((object, old[ObjectIdentifier(object)], .update, indexPath(forObject: object)))
            }
        }
        return outcome
    }

    /// Tells the delegate of a change event: as one difference of object IDs to a delegate taking
    /// differences, else section by section and object by object, between will-change and did-change.
    private func report(_ outcome: Outcome, to delegate: any FetchedResultsControllerDelegate,
                        _ controller: FetchedResultsController<any FetchRequestResult>) {
        if sectionNameKeyPath == nil {
            var steps = [CollectionDifference<ManagedObjectID>.Change]()
            for (object, before, type, after) in outcome.objects where type != .update {
                let moved = type == .move
                if let before { steps.append(.remove(offset: before.item, element: object.objectID, associatedWith: moved ? after?.item : nil)) }
                if let after { steps.append(.insert(offset: after.item, element: object.objectID, associatedWith: moved ? before?.item : nil)) }
            }
            if let difference = CollectionDifference(steps), sendsDifference(difference, to: delegate, controller) { return }
        }
        delegate.controllerWillChangeContent(controller)
        for (section, index) in outcome.deletedSections.sorted(by: { $0.1 > $1.1 }) {
            delegate.controller(controller, didChange: section, atSectionIndex: index, for: .delete)
        }
        for (section, index) in outcome.insertedSections.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(controller, didChange: section, atSectionIndex: index, for: .insert)
        }
        for (object, before, type, after) in outcome.objects {
            delegate.controller(controller, didChange: object, at: before, for: type, newIndexPath: after)
        }
        delegate.controllerDidChangeContent(controller)
    }
}
