package dev.steadfast.store.tenants;

import dev.steadfast.store.StateGuards;
import org.junit.jupiter.api.Test;

/**
 * The tenants' claims guard like every claim ({@link StateGuards#assertClaim}): each read of the live table picks
 * only jobs FETCH may start (JobSql.CLAIMABLE), and the write makes them active.
 */
class TenantClaimGuardsTest {

    @Test
    void everyTenantClaimGuardsOnTheSourcesOfFetch() {
        StateGuards.assertClaim("TenantClaimSql.CLAIM_OF_TENANT", TenantClaimSql.CLAIM_OF_TENANT);
        StateGuards.assertClaim("TenantClaimSql.CLAIM_OF_LIMITED_TENANT", TenantClaimSql.CLAIM_OF_LIMITED_TENANT);
        StateGuards.assertClaim("TenantClaimSql.CLAIM_TENANTS_IN_LIMITED_QUEUE",
                TenantClaimSql.CLAIM_TENANTS_IN_LIMITED_QUEUE);
        StateGuards.assertClaim("TenantClaimSql.CLAIM_FAIR", TenantClaimSql.CLAIM_FAIR);
    }
}
