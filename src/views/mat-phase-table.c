/* mat-phase-table.c - placeholder, to be written */
#include "config.h"

#include "mat-phase-table.h"

struct _MatPhaseTable
{
  GtkWidget    parent_instance;
  MatMaterial *material;
};

G_DEFINE_FINAL_TYPE (MatPhaseTable, mat_phase_table, GTK_TYPE_WIDGET)

static void
mat_phase_table_dispose (GObject *object)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (object);

  g_clear_object (&self->material);
  G_OBJECT_CLASS (mat_phase_table_parent_class)->dispose (object);
}

static void
mat_phase_table_class_init (MatPhaseTableClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = mat_phase_table_dispose;
}

static void
mat_phase_table_init (MatPhaseTable *self)
{
}

GtkWidget *
mat_phase_table_new (void)
{
  return g_object_new (MAT_TYPE_PHASE_TABLE, NULL);
}

MatMaterial *
mat_phase_table_get_material (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);
  return self->material;
}

void
mat_phase_table_set_material (MatPhaseTable *self, MatMaterial *material)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));
  g_set_object (&self->material, material);
}
