#ifndef MODELC_CLIBXML2_SHIM_H
#define MODELC_CLIBXML2_SHIM_H
// Debian builds libxml2 with ICU, whose headers clash with Foundation's copy of ICU in the same
// Swift module. modelc never touches libxml2's encoding handlers (models are UTF-8), so the
// ICU members of those structs are hidden here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
