/* mat0tool-build.c - `build`: a library from a dump document (cli.md)
 *
 * The document is read piece by piece, one entry at a time, and each
 * entry is read by the model (mat_json_entry_parse), as the editor's
 * paste reads it: every member's JSON type checked, with the path of the
 * value at fault in the message. Kept apart from the rest of mat0tool so
 * that tests/fuzz/fuzz-build.c runs the very same code.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "mat-material-json.h"
#include "mat0tool.h"

/* ---- build ------------------------------------------------------------ */

/* One entry of the document into @out (its payload built). */
static gboolean
build_entry (JsonNode *node, const char *where, NresOutEntry *out, GError **error)
{
  out->source = -1;
  return mat_json_entry_parse (node, where, &out->entry, &out->payload, error);
}

/* ---- reading the document piece by piece ---------------------------- */

#define READ_PIECE (1u << 16)
#define NO_MARK    G_MAXSIZE

/* A window on the document: the bytes from the mark (the start of the
 * value being read) to what was read last; everything before the mark
 * is dropped, so memory holds one entry, not the document. */
typedef struct {
  int      fd;
  guint8  *buf;
  gsize    cap;
  gsize    len;
  gsize    pos;
  gsize    mark;
  gboolean eof;
  guint64  line;
  GError  *error;   /* a read error */
} JsonIn;

static gboolean
in_fill (JsonIn *in)
{
  gssize n;

  if (in->eof || in->error != NULL)
    return FALSE;
  if (in->mark != NO_MARK && in->mark > 0)
    {
      memmove (in->buf, in->buf + in->mark, in->len - in->mark);
      in->len -= in->mark;
      in->pos -= in->mark;
      in->mark = 0;
    }
  else if (in->mark == NO_MARK)
    in->len = in->pos = 0;
  if (in->len == in->cap)
    {
      in->cap *= 2;
      in->buf = g_realloc (in->buf, in->cap);
    }
  do
    n = read (in->fd, in->buf + in->len, in->cap - in->len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      int saved = errno;

      g_set_error (&in->error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "could not read: %s", g_strerror (saved));
      return FALSE;
    }
  if (n == 0)
    {
      in->eof = TRUE;
      return FALSE;
    }
  in->len += (gsize) n;
  return TRUE;
}

/* The next byte, or -1 at the end. */
static int
in_peek (JsonIn *in)
{
  if (in->pos == in->len && !in_fill (in))
    return -1;
  return in->buf[in->pos];
}

static int
in_next (JsonIn *in)
{
  int c = in_peek (in);

  if (c >= 0)
    {
      in->pos++;
      if (c == '\n')
        in->line++;
    }
  return c;
}

static void
in_skip_space (JsonIn *in)
{
  int c;

  while ((c = in_peek (in)) == ' ' || c == '\t' || c == '\n' || c == '\r')
    in_next (in);
}

static gboolean
in_fail (JsonIn *in, GError **error, const char *expected)
{
  int c;

  if (in->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&in->error));
      return FALSE;
    }
  c = in_peek (in);
  if (c < 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "line %" G_GUINT64_FORMAT ": expected %s, found the end of the file",
                 in->line, expected);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "line %" G_GUINT64_FORMAT ": expected %s, found '%c'",
                 in->line, expected, g_ascii_isprint (c) ? c : '?');
  return FALSE;
}

static gboolean
in_expect (JsonIn *in, char want, GError **error)
{
  char what[4] = { '\'', want, '\'', 0 };

  in_skip_space (in);
  if (in_peek (in) != want)
    return in_fail (in, error, what);
  in_next (in);
  return TRUE;
}

/* Moves past one value (its syntax is checked when it is parsed). */
static gboolean
in_skip_value (JsonIn *in, GError **error)
{
  guint depth = 0;
  int c = in_peek (in);

  if (c < 0 || c == ',' || c == '}' || c == ']' || c == ':')
    return in_fail (in, error, "a value");
  do
    {
      c = in_next (in);
      if (c < 0)
        return in_fail (in, error, depth > 0 ? "the end of an object or array" : "a value");
      if (c == '"')
        {
          for (;;)
            {
              c = in_next (in);
              if (c < 0)
                return in_fail (in, error, "the end of a string");
              if (c == '\\')
                in_next (in);
              else if (c == '"')
                break;
            }
        }
      else if (c == '{' || c == '[')
        depth++;
      else if (c == '}' || c == ']')
        depth--;
      else if (depth == 0)
        {
          /* a number, true, false or null: up to the next delimiter */
          while ((c = in_peek (in)) >= 0 && c != ',' && c != '}' && c != ']' &&
                 c != ' ' && c != '\t' && c != '\n' && c != '\r')
            in_next (in);
        }
    }
  while (depth > 0);
  return TRUE;
}

/* Reads one value and parses it alone; @where names it in messages
 * (mat_json_load_at). Returns: (transfer full). */
static JsonNode *
in_read_value (JsonIn *in, JsonParser *parser, const char *where, GError **error)
{
  g_autoptr(GError) local = NULL;
  guint64 line;
  JsonNode *root;

  in_skip_space (in);
  line = in->line;
  in->mark = in->pos;
  if (!in_skip_value (in, error))
    return NULL;
  if (!mat_json_load_at (parser, (const char *) in->buf + in->mark,
                         (gssize) (in->pos - in->mark), where, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "line %" G_GUINT64_FORMAT ": %s", line, local->message);
      in->mark = NO_MARK;
      return NULL;
    }
  in->mark = NO_MARK;
  root = json_parser_steal_root (parser);
  return root != NULL ? root : json_node_new (JSON_NODE_NULL);
}

GBytes *
mt_json_build (int fd, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonIn in = { .fd = fd, .cap = READ_PIECE, .mark = NO_MARK, .line = 1 };
  NresOutEntry *out = NULL;
  guint n = 0, cap = 0;
  gboolean have_entries = FALSE;
  GBytes *result = NULL;

  in.buf = g_malloc (in.cap);

  if (!in_expect (&in, '{', error))
    goto out;
  in_skip_space (&in);
  if (in_peek (&in) == '}')
    in_next (&in);
  else
    for (;;)
      {
        g_autoptr(JsonNode) key_node = NULL;
        const char *key;

        in_skip_space (&in);
        if (in_peek (&in) != '"')
          {
            in_fail (&in, error, "a member name");
            goto out;
          }
        key_node = in_read_value (&in, parser, NULL, error);
        if (key_node == NULL)
          goto out;
        key = json_node_get_string (key_node);
        if (!in_expect (&in, ':', error))
          goto out;

        if (g_strcmp0 (key, "entries") == 0)
          {
            if (have_entries)
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "line %" G_GUINT64_FORMAT ": (document): expected one member \"entries\", found another",
                             in.line);
                goto out;
              }
            have_entries = TRUE;
            in_skip_space (&in);
            if (in_peek (&in) != '[')
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "(document): expected an array \"entries\", found another kind of value");
                goto out;
              }
            in_next (&in);
            in_skip_space (&in);
            if (in_peek (&in) == ']')
              in_next (&in);
            else
              for (;;)
                {
                  g_autofree char *where = g_strdup_printf ("entries[%u]", n);
                  g_autoptr(JsonNode) node = in_read_value (&in, parser, where, error);
                  int c;

                  if (node == NULL)
                    goto out;
                  if (n == cap)
                    {
                      cap = MAX (64, cap * 2);
                      out = g_renew (NresOutEntry, out, cap);
                    }
                  memset (&out[n], 0, sizeof out[n]);
                  n++;
                  if (!build_entry (node, where, &out[n - 1], error))
                    goto out;
                  in_skip_space (&in);
                  c = in_next (&in);
                  if (c == ']')
                    break;
                  if (c != ',')
                    {
                      in.pos -= c >= 0 ? 1 : 0;
                      in_fail (&in, error, "',' or ']'");
                      goto out;
                    }
                }
          }
        else
          {
            /* "archive" is checked, not used (the writer makes the
             * header); members cli.md does not name are read and
             * ignored. */
            g_autoptr(JsonNode) value = in_read_value (&in, parser, key, error);

            if (value == NULL)
              goto out;
            if (g_strcmp0 (key, "archive") == 0 && !mat_json_archive_check (value, key, error))
              goto out;
          }

        in_skip_space (&in);
        {
          int c = in_next (&in);

          if (c == '}')
            break;
          if (c != ',')
            {
              in.pos -= c >= 0 ? 1 : 0;
              in_fail (&in, error, "',' or '}'");
              goto out;
            }
        }
      }

  in_skip_space (&in);
  if (in_peek (&in) >= 0 || in.error != NULL)
    {
      in_fail (&in, error, "the end of the document");
      goto out;
    }
  if (!have_entries)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "(document): expected an array \"entries\", found none");
      goto out;
    }

  result = nres_write_repack (NULL, out, n, error);

out:
  if (in.error != NULL && error != NULL && *error == NULL)
    g_propagate_error (error, g_steal_pointer (&in.error));
  g_clear_error (&in.error);
  g_free (in.buf);
  nres_out_entries_free (out, n);
  return result;
}
