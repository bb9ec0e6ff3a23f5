/* mat-texture.c - one Texm texture of a texture library */
#include "config.h"

#include <string.h>

#include "mat-texture.h"
#include "texm-alpha.h"

struct _MatTexture
{
  GObject    parent_instance;

  char      *name;
  GBytes    *payload;
  TexmImage *image;     /* NULL when the payload does not parse */
  char      *error;
  GBytes    *rgba0;     /* level 0, decoded on first use */
  gboolean   average_known;
  gboolean   has_average;
  guint8     average[4];
  gboolean   alpha_known;   /* has_alpha computed */
  gboolean   has_alpha;
};

G_DEFINE_FINAL_TYPE (MatTexture, mat_texture, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_FORMAT,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_MIP_COUNT,
  PROP_PAGE_RECTS,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
mat_texture_finalize (GObject *object)
{
  MatTexture *self = MAT_TEXTURE (object);

  g_free (self->name);
  g_clear_pointer (&self->payload, g_bytes_unref);
  g_clear_pointer (&self->image, texm_image_free);
  g_free (self->error);
  g_clear_pointer (&self->rgba0, g_bytes_unref);

  G_OBJECT_CLASS (mat_texture_parent_class)->finalize (object);
}

static void
mat_texture_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatTexture *self = MAT_TEXTURE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_FORMAT:
      g_value_set_uint (value, mat_texture_get_format (self));
      break;
    case PROP_WIDTH:
      g_value_set_uint (value, mat_texture_get_width (self));
      break;
    case PROP_HEIGHT:
      g_value_set_uint (value, mat_texture_get_height (self));
      break;
    case PROP_MIP_COUNT:
      g_value_set_uint (value, mat_texture_get_mip_count (self));
      break;
    case PROP_PAGE_RECTS:
      g_value_set_uint (value, mat_texture_get_page_rects (self));
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_class_init (MatTextureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = mat_texture_finalize;
  object_class->get_property = mat_texture_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_FORMAT] = g_param_spec_uint ("format", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_WIDTH] = g_param_spec_uint ("width", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_HEIGHT] = g_param_spec_uint ("height", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_MIP_COUNT] = g_param_spec_uint ("mip-count", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_PAGE_RECTS] = g_param_spec_uint ("page-rects", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatTexture::changed:
   *
   * The payload was replaced: the pixels, the size or the Page
   * rectangles may differ.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_texture_init (MatTexture *self)
{
}

MatTexture *
_mat_texture_new (const char *name,
                  GBytes     *payload,
                  gsize       base_offset)
{
  MatTexture *self = g_object_new (MAT_TYPE_TEXTURE, NULL);
  g_autoptr(GError) error = NULL;

  self->name = g_strdup (name);
  self->payload = g_bytes_ref (payload);
  self->image = texm_parse (payload, name, base_offset, &error);
  if (self->image == NULL)
    self->error = g_strdup (error->message);
  return self;
}

void
_mat_texture_set_payload (MatTexture *self,
                          GBytes     *payload,
                          gsize       base_offset)
{
  g_autoptr(GError) error = NULL;
  guint before[5], after[5];
  const guint props[5] = { PROP_FORMAT, PROP_WIDTH, PROP_HEIGHT, PROP_MIP_COUNT, PROP_PAGE_RECTS };
  g_autofree char *old_error = NULL;

  g_return_if_fail (MAT_IS_TEXTURE (self));
  g_return_if_fail (payload != NULL);

  before[0] = mat_texture_get_format (self);
  before[1] = mat_texture_get_width (self);
  before[2] = mat_texture_get_height (self);
  before[3] = mat_texture_get_mip_count (self);
  before[4] = mat_texture_get_page_rects (self);
  old_error = g_steal_pointer (&self->error);

  g_clear_pointer (&self->image, texm_image_free);
  g_clear_pointer (&self->rgba0, g_bytes_unref);
  self->average_known = FALSE;
  self->has_average = FALSE;
  self->alpha_known = FALSE;
  g_bytes_ref (payload);
  g_clear_pointer (&self->payload, g_bytes_unref);
  self->payload = payload;
  self->image = texm_parse (payload, self->name, base_offset, &error);
  if (self->image == NULL)
    self->error = g_strdup (error->message);

  after[0] = mat_texture_get_format (self);
  after[1] = mat_texture_get_width (self);
  after[2] = mat_texture_get_height (self);
  after[3] = mat_texture_get_mip_count (self);
  after[4] = mat_texture_get_page_rects (self);

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    if (before[i] != after[i])
      g_object_notify_by_pspec (G_OBJECT (self), properties[props[i]]);
  if (g_strcmp0 (old_error, self->error) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

const char *
mat_texture_get_name (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->name;
}

guint
mat_texture_get_format (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.format : 0;
}

guint
mat_texture_get_width (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.width : 0;
}

guint
mat_texture_get_height (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.height : 0;
}

guint
mat_texture_get_mip_count (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL ? self->image->header.mip_count : 0;
}

guint
mat_texture_get_page_rects (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), 0);
  return self->image != NULL && self->image->has_page ? self->image->n_rects : 0;
}

const TexmRect *
mat_texture_get_rects (MatTexture *self,
                       guint      *n_rects,
                       gboolean   *has_page)
{
  gboolean page;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  page = self->image != NULL && self->image->has_page;
  if (has_page != NULL)
    *has_page = page;
  if (n_rects != NULL)
    *n_rects = page ? self->image->n_rects : 0;
  return page ? self->image->rects : NULL;
}

GBytes *
mat_texture_get_payload (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->payload;
}

const char *
mat_texture_get_error (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->error;
}

const TexmImage *
mat_texture_get_image (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);
  return self->image;
}

GBytes *
mat_texture_dup_rgba (MatTexture *self,
                      guint       level,
                      guint      *width,
                      guint      *height)
{
  guint w, h;
  guint8 *pixels;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  if (self->image == NULL || level >= self->image->header.mip_count)
    return NULL;

  texm_mip_size (self->image, level, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;

  if (level == 0 && self->rgba0 != NULL)
    return g_bytes_ref (self->rgba0);

  pixels = texm_decode_rgba (self->image, level, NULL, NULL);
  if (pixels == NULL)
    return NULL;
  if (level > 0)
    return g_bytes_new_take (pixels, (gsize) w * h * 4);
  self->rgba0 = g_bytes_new_take (pixels, (gsize) w * h * 4);
  return g_bytes_ref (self->rgba0);
}

gboolean
mat_texture_get_average (MatTexture *self,
                         guint8      rgba[4])
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!self->average_known)
    {
      g_autoptr(GBytes) pixels = NULL;
      guint width = 0, height = 0;

      self->average_known = TRUE;
      memset (self->average, 0, sizeof self->average);
      if (self->image != NULL && self->image->header.mip_count > 0)
        pixels = mat_texture_dup_rgba (self, self->image->header.mip_count - 1, &width, &height);
      if (pixels != NULL && width > 0 && height > 0)
        {
          const guint8 *p = g_bytes_get_data (pixels, NULL);
          guint64 n = (guint64) width * height, sum[4] = { 0, 0, 0, 0 };

          for (guint64 i = 0; i < n; i++)
            for (guint c = 0; c < 4; c++)
              sum[c] += p[i * 4 + c];
          for (guint c = 0; c < 4; c++)
            self->average[c] = (guint8) ((sum[c] + n / 2) / n);
          self->has_average = TRUE;
        }
    }
  memcpy (rgba, self->average, sizeof self->average);
  return self->has_average;
}

TexmDrawAlpha
mat_texture_draw_alpha (MatTexture *self,
                        guint32     attr1,
                        gboolean    emboss_bump)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), TEXM_DRAW_ALPHA);

  if (self->image == NULL)
    return TEXM_DRAW_ALPHA;
  return texm_draw_alpha (self->image->header.format, self->image->header.flags5, attr1,
                          emboss_bump);
}

gboolean
mat_texture_has_alpha (MatTexture *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), FALSE);

  if (!self->alpha_known)
    {
      self->alpha_known = TRUE;
      self->has_alpha = self->image != NULL && texm_image_has_alpha (self->image);
    }
  return self->has_alpha;
}

GBytes *
mat_texture_dup_drawn_rgba (MatTexture    *self,
                            guint          level,
                            TexmDrawAlpha  how,
                            guint         *width,
                            guint         *height)
{
  g_autoptr(GBytes) rgba = NULL;
  guint w = 0, h = 0;
  guint8 *copy;
  gsize size;

  g_return_val_if_fail (MAT_IS_TEXTURE (self), NULL);

  rgba = mat_texture_dup_rgba (self, level, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
  if (rgba == NULL || how == TEXM_DRAW_ALPHA
      || (how == TEXM_DRAW_ALPHA_INDEX0 && self->image->header.format != 0))
    return g_steal_pointer (&rgba);
  /* opaque: nothing to change when level 0 has no alpha stored */
  if (texm_draw_alpha_is_opaque (how) && level == 0 && self->image->header.format != 0
      && !mat_texture_has_alpha (self))
    return g_steal_pointer (&rgba);

  copy = g_bytes_unref_to_data (g_steal_pointer (&rgba), &size);
  g_return_val_if_fail (size >= (gsize) w * h * 4, (g_free (copy), NULL));
  texm_apply_draw_alpha (self->image, level, how, copy);
  return g_bytes_new_take (copy, size);
}

gboolean
mat_texture_get_drawn_average (MatTexture    *self,
                               TexmDrawAlpha  how,
                               guint8         rgba[4])
{
  g_return_val_if_fail (MAT_IS_TEXTURE (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!mat_texture_get_average (self, rgba))
    return FALSE;
  if (texm_draw_alpha_is_opaque (how))
    rgba[3] = 255;
  else if (how == TEXM_DRAW_ALPHA_INDEX0 && self->image->header.format == 0)
    {
      g_autoptr(GBytes) pixels = NULL;
      guint level = self->image->header.mip_count - 1, w = 0, h = 0;
      guint64 sum = 0, n;

      pixels = mat_texture_dup_drawn_rgba (self, level, how, &w, &h);
      if (pixels == NULL || w == 0 || h == 0)
        return TRUE;
      n = (guint64) w * h;
      for (guint64 i = 0; i < n; i++)
        sum += ((const guint8 *) g_bytes_get_data (pixels, NULL))[i * 4 + 3];
      rgba[3] = (guint8) ((sum + n / 2) / n);
    }
  return TRUE;
}
