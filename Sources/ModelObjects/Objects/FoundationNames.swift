// Foundation's names for the undo manager and value transformers, where Foundation lacks those
// types (swift-corelibs-foundation on Linux, Windows and Android), so that code written for Apple's
// Foundation compiles unchanged there. Foundation on Apple platforms declares these names itself,
// so there they stay Foundation's and the object layer's types go by their own names; the module
// uses only its own names, which `.ci/run` checks by building it with
// `MODELC_WITHOUT_FOUNDATION_NAMES` defined.
#if !canImport(Darwin) && !MODELC_WITHOUT_FOUNDATION_NAMES

/// Foundation's name for ``ContextUndoManager``, on platforms whose Foundation has no undo manager.
public typealias UndoManager = ContextUndoManager

/// Foundation's name for ``AttributeValueTransformer``, on platforms whose Foundation has no value
/// transformers.
public typealias ValueTransformer = AttributeValueTransformer

/// Foundation's name for ``AttributeValueTransformer/Name``, on platforms whose Foundation has no
/// value transformers.
public typealias NSValueTransformerName = AttributeValueTransformer.Name

#endif
