package dev.steadfast.domain;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code tenant_id} label of per-tenant metrics, with bounded cardinality (ojs-multi-tenancy MT-006 and 15.4): the
 * first {@code max} tenants seen keep their own label, every later one is counted under {@link #OTHER}, so a
 * metrics system never sees more than {@code max} + 2 values whatever the number of tenants. Jobs without a tenant
 * are the default tenant's ({@link #DEFAULT}, 15.3). The set lives as long as the process (a tenant keeps its label
 * once given one, so a series never moves between labels); each instance decides for itself.
 */
public final class TenantLabels {

    /** The label of jobs without a tenant. */
    public static final String DEFAULT = TenantId.DEFAULT;
    /** The label of the tenants seen after the first {@code max}. */
    public static final String OTHER = "_other";

    private final int max;
    private final Set<String> labelled = ConcurrentHashMap.newKeySet();

    public TenantLabels(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max " + max);
        }
        this.max = max;
    }

    /** The label of {@code tenant} (null: none). */
    public String of(String tenant) {
        if (tenant == null) {
            return DEFAULT;
        }
        if (labelled.contains(tenant)) {
            return tenant;
        }
        synchronized (labelled) {
            if (labelled.contains(tenant) || labelled.size() < max && labelled.add(tenant)) {
                return tenant;
            }
        }
        return OTHER;
    }
}
