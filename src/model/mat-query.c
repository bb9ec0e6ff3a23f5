/* mat-query.c - what the material list's search asks of each material
 *
 * A query is read once into an array of terms; matching a material walks
 * them over its directory fields and its content as the core reads it
 * (_mat_material_peek_core, kept by the material until it changes), so a
 * search of 65,536 materials allocates nothing and makes no object.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-fields.h"
#include "mat0-flags.h"
#include "mat0-validate.h"

#include "mat-model-private.h"
#include "mat-query.h"

typedef enum {
  TERM_NAME,
  TERM_TEXTURE,
  TERM_BLEND,
  TERM_BIT,
  TERM_ATTR1,
  TERM_VERSION,
  TERM_OPACITY,
  TERM_MODE,
  TERM_INTERP,
  TERM_PHASES,
  TERM_BLOCKS,
  TERM_KEYS,
  TERM_PERIOD,
  TERM_LINT,
  TERM_WORN,
} TermKind;

typedef struct {
  TermKind  kind;
  gboolean  negate;
  guint64   lo, hi;      /* a RANGE, both ends included */
  guint32   set;         /* BLEND, MODE: the indices as bits; BIT: the
                            mask; INTERP: the bits asked for; LINT: the
                            checks as bits */
  gboolean  bits;        /* INTERP: @set, else the range */
  gboolean  none;        /* TEXTURE: an untextured phase */
  char     *text;        /* NAME, WORN: case-folded; TEXTURE: the pattern
                            as CP1251 bytes, ASCII in lower case */
  gsize     text_len;
  gboolean  ascii;       /* NAME: compared with the raw name bytes */
} Term;

struct _MatQuery
{
  grefcount         ref;
  GArray           *terms;      /* Term */
  gboolean          names_only;
  gboolean          needs_worn;
  MatQueryWornFunc  worn_func;
  gpointer          worn_data;
};

static gpointer
boxed_ref (gpointer boxed)
{
  return mat_query_ref (boxed);
}

static void
boxed_unref (gpointer boxed)
{
  mat_query_unref (boxed);
}

GType
mat_query_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_boxed_type_register_static (g_intern_static_string ("MatQuery"),
                                                            boxed_ref, boxed_unref));
  return type;
}

/* ---- names -------------------------------------------------------------- */

static const char * const blend_ids[MAT0_N_BLEND_INDICES] = {
  "opaque", "see-through", "additive", "modulate", "double-modulate",
};

static const char * const mode_ids[4] = {
  "loop", "ping-pong", "once", "random",
};

static const char * const interp_ids[MAT0_N_INTERP_BITS] = {
  "self-light", "diffuse", "specular", "emissive", "opacity",
};

const char *
mat_query_blend_id (guint index)
{
  return index < G_N_ELEMENTS (blend_ids) ? blend_ids[index] : NULL;
}

const char *
mat_query_mode_id (guint mode)
{
  return mode < G_N_ELEMENTS (mode_ids) ? mode_ids[mode] : NULL;
}

const char *
mat_query_interp_id (guint bit)
{
  return bit < G_N_ELEMENTS (interp_ids) ? interp_ids[bit] : NULL;
}

static const struct {
  const char *key;
  TermKind    kind;
} keys[] = {
  { "name", TERM_NAME },
  { "texture", TERM_TEXTURE },
  { "blend", TERM_BLEND },
  { "bit", TERM_BIT },
  { "attr1", TERM_ATTR1 },
  { "version", TERM_VERSION },
  { "opacity", TERM_OPACITY },
  { "mode", TERM_MODE },
  { "interp", TERM_INTERP },
  { "phases", TERM_PHASES },
  { "blocks", TERM_BLOCKS },
  { "keys", TERM_KEYS },
  { "period", TERM_PERIOD },
  { "lint", TERM_LINT },
  { "worn", TERM_WORN },
};

/* ---- reading ------------------------------------------------------------ */

static gboolean
is_ascii (const char *s)
{
  for (; *s != '\0'; s++)
    if ((guchar) *s >= 0x80)
      return FALSE;
  return TRUE;
}

static gboolean
parse_number (const char *s,
              guint64    *out)
{
  int base = 10;

  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      s += 2;
      base = 16;
    }
  if (s[0] == '\0' || s[0] == '+' || s[0] == '-')
    return FALSE;
  return g_ascii_string_to_unsigned (s, base, 0, G_MAXUINT32, out, NULL);
}

/* N, <N, <=N, >N, >=N, =N or N..M; with @percent a number may end in %. */
static gboolean
parse_range (const char *value,
             gboolean    percent,
             guint64    *lo,
             guint64    *hi)
{
  g_autofree char *text = g_strdup (value);
  char *s = text;
  const char *dots;
  guint64 a, b;
  int op = 0;   /* 0 =, 1 <, 2 <=, 3 >, 4 >= */

  if (percent)
    {
      /* "<100%", "50%..100%" */
      char *w = s;

      for (char *r = s; *r != '\0'; r++)
        if (*r != '%')
          *w++ = *r;
      *w = '\0';
    }

  if (g_str_has_prefix (s, "<="))
    op = 2, s += 2;
  else if (g_str_has_prefix (s, ">="))
    op = 4, s += 2;
  else if (s[0] == '<')
    op = 1, s++;
  else if (s[0] == '>')
    op = 3, s++;
  else if (s[0] == '=')
    s++;

  dots = op == 0 ? strstr (s, "..") : NULL;
  if (dots != NULL)
    {
      g_autofree char *first = g_strndup (s, (gsize) (dots - s));

      if (!parse_number (first, &a) || !parse_number (dots + 2, &b))
        return FALSE;
      *lo = a;
      *hi = b;
      return TRUE;
    }

  if (!parse_number (s, &a))
    return FALSE;
  switch (op)
    {
    case 1:
      /* <0: nothing */
      *lo = a == 0 ? 1 : 0;
      *hi = a == 0 ? 0 : a - 1;
      break;
    case 2: *lo = 0; *hi = a; break;
    case 3: *lo = a + 1; *hi = G_MAXUINT64; break;
    case 4: *lo = a; *hi = G_MAXUINT64; break;
    default: *lo = a; *hi = a; break;
    }
  return TRUE;
}

/* @format: a translated message with one %s, the word. */
#define set_error(error, format, word) \
  g_set_error ((error), MAT_MODEL_ERROR, MAT_MODEL_ERROR_QUERY_INVALID, (format), (word))

static gboolean
range_error (GError **error, const char *word)
{
  /* Translators: %s is a word of the search that cannot be read, “opacity:<x” */
  set_error (error, _("“%s”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100"), word);
  return FALSE;
}

static gboolean
read_texture (Term        *term,
              const char  *value,
              const char  *word,
              GError     **error)
{
  guint8 field[256];

  if (value[0] == '\0')
    {
      set_error (error, _("“%s”: expected a texture name, * for any texture, or none"), word);
      return FALSE;
    }
  if (g_ascii_strcasecmp (value, "none") == 0)
    {
      term->none = TRUE;
      return TRUE;
    }
  if (!cp1251_from_utf8 (value, field, sizeof field, NULL))
    {
      set_error (error, _("“%s”: expected a texture name in characters that CP1251 has, as the game stores names"), word);
      return FALSE;
    }
  term->text_len = strlen ((const char *) field);
  term->text = g_ascii_strdown ((const char *) field, (gssize) term->text_len);
  return TRUE;
}

static gboolean
read_id (const char         *value,
         const char * const *ids,
         guint               n_ids,
         guint               max,
         guint               unknown_from,
         guint32            *set)
{
  guint64 n;

  for (guint i = 0; i < n_ids; i++)
    if (g_ascii_strcasecmp (value, ids[i]) == 0)
      {
        *set = 1u << i;
        return TRUE;
      }
  if (g_ascii_strcasecmp (value, "unknown") == 0)
    {
      *set = 0;
      for (guint i = unknown_from; i <= max; i++)
        *set |= 1u << i;
      return TRUE;
    }
  if (parse_number (value, &n) && n <= max)
    {
      *set = 1u << n;
      return TRUE;
    }
  return FALSE;
}

static gboolean
read_lint (Term        *term,
           const char  *value,
           const char  *word,
           GError     **error)
{
  g_autoptr(GString) names = NULL;

  if (g_ascii_strcasecmp (value, "any") == 0)
    {
      for (guint c = MAT0_CHECK_DECODE_ERROR; c <= MAT0_LINT_AMBIENT_ALPHA; c++)
        term->set |= 1u << c;
      return TRUE;
    }
  if (g_ascii_strcasecmp (value, "empty-interval") == 0)
    {
      term->set = 1u << MAT0_LINT_KEY_TIME_ORDER;
      return TRUE;
    }
  /* a material's own checks: the archive's lints are not of one material */
  names = g_string_new (NULL);
  for (guint c = MAT0_CHECK_DECODE_ERROR; c <= MAT0_LINT_AMBIENT_ALPHA; c++)
    {
      if (g_ascii_strcasecmp (value, mat0_check_name (c)) == 0)
        {
          term->set = 1u << c;
          return TRUE;
        }
      g_string_append (names, mat0_check_name (c));
      g_string_append (names, ", ");
    }
  g_string_append (names, "empty-interval, any");
  /* Translators: the first %s is the word of the search, the second the
   * kinds of lint: zero-period, key-time-order, ... */
  g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_QUERY_INVALID,
               _("“%s”: expected a kind of lint: %s"), word, names->str);
  return FALSE;
}

static gboolean
read_term (Term        *term,
           const char  *key_value,
           const char  *value,
           const char  *word,
           GError     **error)
{
  guint64 n;

  switch (term->kind)
    {
    case TERM_NAME:
    case TERM_WORN:
      if (value[0] == '\0')
        {
          set_error (error, term->kind == TERM_NAME ? _("“%s”: expected a part of a name")
                                                    : _("“%s”: expected a part of a model's name"), word);
          return FALSE;
        }
      term->text = g_utf8_casefold (value, -1);
      term->text_len = strlen (term->text);
      term->ascii = is_ascii (term->text);
      return TRUE;

    case TERM_TEXTURE:
      return read_texture (term, value, word, error);

    case TERM_BLEND:
      if (read_id (value, blend_ids, G_N_ELEMENTS (blend_ids), 15, MAT0_N_BLEND_INDICES, &term->set))
        return TRUE;
      set_error (error, _("“%s”: expected a blend mode: opaque, see-through, additive, modulate, double-modulate, unknown, or an index 0..15"), word);
      return FALSE;

    case TERM_MODE:
      if (read_id (value, mode_ids, G_N_ELEMENTS (mode_ids), 7, 4, &term->set))
        return TRUE;
      set_error (error, _("“%s”: expected a mode: loop, ping-pong, once, random, unknown, or 0..7"), word);
      return FALSE;

    case TERM_BIT:
      if (parse_number (value, &n) && n < 32)
        {
          term->set = 1u << n;
          return TRUE;
        }
      set_error (error, _("“%s”: expected a bit of attr1, 0..31"), word);
      return FALSE;

    case TERM_INTERP:
      for (guint i = 0; i < G_N_ELEMENTS (interp_ids); i++)
        if (g_ascii_strcasecmp (value, interp_ids[i]) == 0)
          {
            term->bits = TRUE;
            term->set = 1u << i;
            return TRUE;
          }
      if (g_ascii_strcasecmp (value, "none") == 0)
        {
          term->lo = term->hi = 0;
          return TRUE;
        }
      if (parse_range (value, FALSE, &term->lo, &term->hi))
        return TRUE;
      set_error (error, _("“%s”: expected an interpolation bit (self-light, diffuse, specular, emissive, opacity), none, or a mask such as 0x11 or >0"), word);
      return FALSE;

    case TERM_LINT:
      return read_lint (term, value, word, error);

    case TERM_OPACITY:
      if (parse_range (value, TRUE, &term->lo, &term->hi))
        return TRUE;
      return range_error (error, word);

    case TERM_ATTR1:
    case TERM_VERSION:
    case TERM_PHASES:
    case TERM_BLOCKS:
    case TERM_KEYS:
    case TERM_PERIOD:
    default:
      if (parse_range (value, FALSE, &term->lo, &term->hi))
        return TRUE;
      return range_error (error, word);
    }
}

static void
term_clear (gpointer data)
{
  Term *term = data;

  g_clear_pointer (&term->text, g_free);
}

/* The next word of @text from *@pos: its text as typed (@raw) and with
 * its quotes taken away (@word); @key_end, the length of @word before
 * the first colon outside quotes (or -1). %FALSE at the end. */
static gboolean
next_word (const char  *text,
           gsize       *pos,
           char       **raw,
           char       **word,
           gssize      *key_end)
{
  gsize i = *pos;
  gsize start;
  GString *out;
  gboolean quoted = FALSE;

  while (text[i] != '\0' && g_ascii_isspace (text[i]))
    i++;
  if (text[i] == '\0')
    {
      *pos = i;
      return FALSE;
    }

  start = i;
  out = g_string_new (NULL);
  *key_end = -1;
  for (; text[i] != '\0'; i++)
    {
      char c = text[i];

      if (!quoted && g_ascii_isspace (c))
        break;
      if (c == '"')
        {
          quoted = !quoted;
          continue;
        }
      if (quoted && c == '\\' && (text[i + 1] == '"' || text[i + 1] == '\\'))
        {
          g_string_append_c (out, text[++i]);
          continue;
        }
      if (!quoted && c == ':' && *key_end < 0)
        *key_end = (gssize) out->len;
      g_string_append_c (out, c);
    }

  *raw = g_strndup (text + start, i - start);
  *word = g_string_free (out, FALSE);
  *pos = i;
  return TRUE;
}

MatQuery *
mat_query_new (const char  *text,
               GError     **error)
{
  g_autoptr(MatQuery) self = NULL;
  gsize pos = 0;
  char *raw_text, *word_text;
  gssize key_end;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (MatQuery, 1);
  g_ref_count_init (&self->ref);
  self->terms = g_array_new (FALSE, TRUE, sizeof (Term));
  g_array_set_clear_func (self->terms, term_clear);
  self->names_only = TRUE;

  while (next_word (text, &pos, &raw_text, &word_text, &key_end))
    {
      g_autofree char *raw = raw_text;
      g_autofree char *word = word_text;
      const char *body = word;
      Term term = { 0, };
      gboolean keyed = FALSE;

      /* "-word": not; a quoted "-word" is a word */
      if (raw[0] == '-' && raw[1] != '\0')
        {
          term.negate = TRUE;
          body = word + 1;
          if (key_end > 0)
            key_end--;
        }

      if (key_end > 0)
        for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
          if (strlen (keys[k].key) == (gsize) key_end &&
              g_ascii_strncasecmp (body, keys[k].key, (gsize) key_end) == 0)
            {
              term.kind = keys[k].kind;
              keyed = TRUE;
              break;
            }

      if (!keyed && body[0] == '\0')
        continue;   /* "" as it is typed */
      if (!keyed)
        {
          term.kind = TERM_NAME;
          if (!read_term (&term, body, body, raw, error))
            return NULL;
        }
      else if (!read_term (&term, body, body + key_end + 1, raw, error))
        {
          term_clear (&term);
          return NULL;
        }

      if (keyed || term.negate)
        self->names_only = FALSE;
      if (term.kind == TERM_WORN)
        self->needs_worn = TRUE;
      g_array_append_val (self->terms, term);
    }

  return g_steal_pointer (&self);
}

MatQuery *
mat_query_ref (MatQuery *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_ref_count_inc (&self->ref);
  return self;
}

void
mat_query_unref (MatQuery *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref))
    return;
  g_array_unref (self->terms);
  g_free (self);
}

gboolean
mat_query_is_empty (MatQuery *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return self->terms->len == 0;
}

gboolean
mat_query_is_names_only (MatQuery *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->names_only;
}

gboolean
mat_query_needs_worn (MatQuery *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->needs_worn;
}

gboolean
mat_query_narrows (MatQuery *self,
                   MatQuery *looser)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (looser != NULL, FALSE);

  if (!self->names_only || !looser->names_only)
    return FALSE;
  for (guint i = 0; i < looser->terms->len; i++)
    {
      const Term *w = &g_array_index (looser->terms, Term, i);
      gboolean inside = FALSE;

      for (guint j = 0; j < self->terms->len && !inside; j++)
        inside = strstr (g_array_index (self->terms, Term, j).text, w->text) != NULL;
      if (!inside)
        return FALSE;
    }
  return TRUE;
}

void
mat_query_set_worn_func (MatQuery         *self,
                         MatQueryWornFunc  func,
                         gpointer          user_data)
{
  g_return_if_fail (self != NULL);

  self->worn_func = func;
  self->worn_data = user_data;
}

char *
mat_query_quote (const char *value)
{
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);

  if (value[0] != '\0' && strpbrk (value, " \t\n\r\"\\") == NULL)
    return g_strdup (value);

  out = g_string_new ("\"");
  for (const char *s = value; *s != '\0'; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

/* ---- matching ----------------------------------------------------------- */

/* Whether @needle (ASCII, lower case) occurs in the NUL-terminated bytes
 * of @haystack, at most @size of them, ignoring ASCII case. */
static gboolean
raw_contains (const char *haystack,
              gsize       size,
              const char *needle,
              gsize       needle_len)
{
  gsize len = strnlen (haystack, size);

  if (needle_len > len)
    return FALSE;
  for (gsize start = 0; start + needle_len <= len; start++)
    {
      gsize i = 0;

      while (i < needle_len && g_ascii_tolower (haystack[start + i]) == needle[i])
        i++;
      if (i == needle_len)
        return TRUE;
    }
  return FALSE;
}

static gboolean
name_matches (const Term  *term,
              MatMaterial *material)
{
  g_autofree char *folded = NULL;

  if (term->ascii)
    {
      const NresEntry *entry = _mat_material_get_entry (material);

      return raw_contains (entry->name, sizeof entry->name, term->text, term->text_len);
    }
  folded = g_utf8_casefold (mat_material_get_name (material), -1);
  return strstr (folded, term->text) != NULL;
}

/* @pattern (lower case, * any run) over the @len bytes of @s, ASCII case
 * ignored. */
static gboolean
glob_matches (const char   *pattern,
              gsize         pattern_len,
              const guint8 *s,
              gsize         len)
{
  gsize p = 0, i = 0;
  gsize star = G_MAXSIZE, resume = 0;

  while (i < len)
    {
      if (p < pattern_len && pattern[p] == '*')
        {
          star = p++;
          resume = i;
        }
      else if (p < pattern_len && (guchar) pattern[p] == (guchar) g_ascii_tolower ((char) s[i]))
        {
          p++;
          i++;
        }
      else if (star != G_MAXSIZE)
        {
          p = star + 1;
          i = ++resume;
        }
      else
        return FALSE;
    }
  while (p < pattern_len && pattern[p] == '*')
    p++;
  return p == pattern_len;
}

static gboolean
texture_matches (const Term         *term,
                 const Mat0Material *core)
{
  for (guint i = 0; i < core->n_phases; i++)
    {
      const Mat0Phase *phase = &core->phases[i];
      gsize len = mat0_phase_texture_len (phase);

      if (term->none ? len == 0
                     : len > 0 && glob_matches (term->text, term->text_len, phase->texture, len))
        return TRUE;
    }
  return FALSE;
}

static inline gboolean
in_range (const Term *term,
          guint64     value)
{
  return value >= term->lo && value <= term->hi;
}

/* Whether @term holds for @material, before its negation. */
static gboolean
term_matches (MatQuery    *self,
              const Term  *term,
              MatMaterial *material)
{
  const NresEntry *entry = _mat_material_get_entry (material);
  const Mat0Material *core;
  guint64 total;

  if (term->kind == TERM_NAME)
    return name_matches (term, material);
  if (entry->type_id != NRES_TYPE_MAT0)
    return FALSE;

  /* the directory's fields */
  switch (term->kind)
    {
    case TERM_BLEND:
      return (term->set & (1u << mat0_flags_nibble_mode (entry->attr1))) != 0;
    case TERM_BIT:
      return (entry->attr1 & term->set) != 0;
    case TERM_ATTR1:
      return in_range (term, entry->attr1);
    case TERM_VERSION:
      return in_range (term, entry->attr2);
    case TERM_LINT:
      return (_mat_material_get_lint_mask (material) & term->set) != 0;
    case TERM_WORN:
      return self->worn_func != NULL && self->worn_func (material, term->text, self->worn_data);
    default:
      break;
    }

  /* the content */
  core = _mat_material_peek_core (material);
  if (core == NULL)
    return FALSE;
  switch (term->kind)
    {
    case TERM_TEXTURE:
      return texture_matches (term, core);
    case TERM_OPACITY:
      for (guint i = 0; i < core->n_phases; i++)
        if (in_range (term, core->phases[i].p[MAT0_AMBIENT_ALPHA_BYTE]))
          return TRUE;
      return FALSE;
    case TERM_MODE:
      for (guint b = 0; b < core->n_blocks; b++)
        if ((term->set & (1u << mat0_block_mode (&core->blocks[b]))) != 0)
          return TRUE;
      return FALSE;
    case TERM_INTERP:
      for (guint b = 0; b < core->n_blocks; b++)
        {
          guint32 mask = mat0_block_interp_mask (&core->blocks[b]);

          if (term->bits ? (mask & term->set) != 0 : in_range (term, mask))
            return TRUE;
        }
      return FALSE;
    case TERM_PHASES:
      return in_range (term, core->n_phases);
    case TERM_BLOCKS:
      return in_range (term, core->n_blocks);
    case TERM_KEYS:
      total = 0;
      for (guint b = 0; b < core->n_blocks; b++)
        total += core->blocks[b].n_keys;
      return in_range (term, total);
    case TERM_PERIOD:
      for (guint b = 0; b < core->n_blocks; b++)
        if (in_range (term, mat0_block_period (&core->blocks[b])))
          return TRUE;
      return FALSE;
    default:
      return FALSE;
    }
}

gboolean
mat_query_matches (MatQuery    *self,
                   MatMaterial *material)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (material), FALSE);

  for (guint i = 0; i < self->terms->len; i++)
    {
      const Term *term = &g_array_index (self->terms, Term, i);

      if (term_matches (self, term, material) == term->negate)
        return FALSE;
    }
  return TRUE;
}
