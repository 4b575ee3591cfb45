-- The customer message that fired each activation, so an author can turn a real message into a
-- trigger case from the activity log. Rows recorded before this migration have none (NULL).
ALTER TABLE activations ADD COLUMN message TEXT;
