/* mat-texture.c - one Texm texture of a texture library */
#include "config.h"

#include <string.h>

#include "mat-texture.h"

struct _MatTexture
{
  GObject    parent_instance;

  char      *name;
  TexmImage *image;     /* NULL when the payload does not parse */
  char      *error;
  GBytes    *rgba0;     /* level 0, decoded on first use */
  gboolean   average_known;
  gboolean   has_average;
  guint8     average[4];
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

static void
mat_texture_finalize (GObject *object)
{
  MatTexture *self = MAT_TEXTURE (object);

  g_free (self->name);
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
  self->image = texm_parse (payload, name, base_offset, &error);
  if (self->image == NULL)
    self->error = g_strdup (error->message);
  return self;
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
