#include "report/sarif.h"

#include <string.h>

void report_sarif_uri(base_strbuf *out, const char *path)
{
    static const char ok[] = "-._~/!$&'()*+,;=:@";
    base_strbuf b = { 0 };
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            (*p && strchr(ok, *p)))
            base_strbuf_putc(&b, (char)*p);
        else
            base_strbuf_printf(&b, "%%%02X", *p);
    }
    base_strbuf_json_string(out, base_strbuf_cstr(&b));
    base_strbuf_free(&b);
}

void report_sarif_location_open(base_strbuf *out, const char *file, uint32_t line, uint32_t col)
{
    base_strbuf_puts(out, "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    report_sarif_uri(out, file ? file : "unknown");
    base_strbuf_printf(out, "},\"region\":{\"startLine\":%u", line ? line : 1);
    if (col)
        base_strbuf_printf(out, ",\"startColumn\":%u", col);
    base_strbuf_puts(out, "}}");
}

void report_sarif_location_msg(base_strbuf *out, const char *file, uint32_t line, uint32_t col,
                               const char *msg)
{
    report_sarif_location_open(out, file, line, col);
    if (msg) {
        base_strbuf_puts(out, ",\"message\":{\"text\":");
        base_strbuf_json_string(out, msg);
        base_strbuf_putc(out, '}');
    }
    base_strbuf_putc(out, '}');
}
