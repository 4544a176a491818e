//===- AuditCommand.h - `detc audit` --------------------------------------===//

#ifndef DETC_TOOLS_DETC_AUDITCOMMAND_H
#define DETC_TOOLS_DETC_AUDITCOMMAND_H

namespace detc::tool {

/// Runs `detc audit [--python=PATH] [--steps N] [--format=text|json]
/// SCRIPT [ARGS...]`: the script runs under detc_runtime.audit, which
/// records every random draw it makes (docs/audit.md). The script's own
/// arguments follow it unparsed, so this bypasses the option parser.
/// Returns the process exit status.
int runAudit(int argc, char **argv);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_AUDITCOMMAND_H
