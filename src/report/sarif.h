/* sarif: pieces every SARIF 2.1.0 writer of report shares. */
#ifndef RAVEL_REPORT_SARIF_H
#define RAVEL_REPORT_SARIF_H

#include <stdint.h>

#include "base/strbuf.h"

/* A file path as a JSON string holding a URI reference (RFC 3986): bytes
 * outside the path characters are percent-encoded. */
void report_sarif_uri(base_strbuf *out, const char *path);
/* A location object {"physicalLocation":{"artifactLocation":{"uri":..},
 * "region":{..}}} without its closing brace, for the caller to add members
 * and close; line 0 becomes 1 (SARIF regions start at 1), col 0 is left
 * out. */
void report_sarif_location_open(base_strbuf *out, const char *file, uint32_t line, uint32_t col);
/* A whole location object, with a message (NULL: none). */
void report_sarif_location_msg(base_strbuf *out, const char *file, uint32_t line, uint32_t col,
                               const char *msg);

#endif
