/** The administrators' certificate list and the regulator's batch, spread into the certificates router. */
export const certificateAdminProcedures = {};
