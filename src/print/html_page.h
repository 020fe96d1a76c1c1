/*
 * A report page (print_html.c): one of src/print/html/'s templates with
 * its @@NAME@@ places filled. The report (--output=html) and the diff
 * report (--diff --output=html, html_diff.c) are two pages of the one
 * stylesheet, each with its own script and documents.
 */
#ifndef CGA_HTML_PAGE_H
#define CGA_HTML_PAGE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Writes page with @@TITLE@@ (title as HTML text), @@CSS@@ (the
 * report's stylesheet) and @@JS@@ (js) filled, and every other place
 * by put(json, place, arg): json is a stream that makes what is written
 * safe inside a <script> element; put returns false for a place it
 * does not know (our bug: the template and its writer disagree).
 */
void html_page_write(FILE *out, const char *page, const char *js,
		     const char *title,
		     bool (*put)(FILE *json, const char *at, void *arg),
		     void *arg);

#endif
