/* bench/cfront/pch_probe.c: what a precompiled header shared by units would
 * save, measured outside ravel (nothing of ravel uses it). Reads an args
 * file (one unit a line: directory, file, then the compiler's arguments
 * without -c/-o, tab-separated; pch_probe.sh writes it from a compilation
 * database) and parses every unit with libclang, in mode 0 as ravel does
 * (CXTranslationUnit_KeepGoing), in mode 1 with a PCH shared by the units
 * whose first non-comment line is the same #include and whose directory and
 * flags are the same: the PCH is built once from a header holding that
 * line (given to clang as an unsaved file in the unit's directory, so
 * quoted includes resolve as in the unit), and each unit is parsed with
 * -include-pch and its text with that line blanked (same length, so every
 * location stays). Prints the units, the PCHs, the units parsed with one,
 * the CPU seconds and the error diagnostics (which must not change).
 *   pch_probe ARGS-FILE MODE       (PCH_DIR: where the PCHs go, /tmp) */
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double cpu(void){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}
typedef struct { char *dir,*file,*text; size_t len; const char *a[512]; int na; char inc[1024]; long incoff, inclen; char key[8192]; } unit;
static char *slurp(const char*p,size_t*n){FILE*f=fopen(p,"rb");if(!f)return 0;fseek(f,0,2);long l=ftell(f);rewind(f);char*b=malloc(l+1);*n=fread(b,1,l,f);b[*n]=0;fclose(f);return b;}
/* the first line that is not blank or a comment: an #include? */
static void first_include(unit*u){
  const char*s=u->text,*e=s+u->len; int inc=0;
  while(s<e){
    if(*s==' '||*s=='\t'||*s=='\n'||*s=='\r'){s++;continue;}
    if(s[0]=='/'&&s[1]=='*'){const char*q=strstr(s+2,"*/");if(!q)return;s=q+2;continue;}
    if(s[0]=='/'&&s[1]=='/'){while(s<e&&*s!='\n')s++;continue;}
    if(*s=='#'){const char*q=s+1;while(*q==' '||*q=='\t')q++; if(!strncmp(q,"include",7)){const char*nl=strchr(s,'\n');if(!nl)return;
        /* no comment or continuation on the line */
        const char*cm=strstr(s,"/*"); if(memchr(s,'\\',nl-s)||(cm&&cm<nl))return;
        u->incoff=s-u->text;u->inclen=nl-s;snprintf(u->inc,sizeof u->inc,"%.*s",(int)(nl-s),s);inc=1;}}
    break;
  }
  (void)inc;
}
int main(int argc,char**argv){
  if(argc<3){fprintf(stderr,"usage: pch_probe ARGS-FILE MODE\n");return 2;}
  FILE*f=fopen(argv[1],"r"); static char line[65536]; unit*us=calloc(400,sizeof*us); int n=0;
  int mode=atoi(argv[2]); /* 0 baseline, 1 shared pch of the first include */
  while(fgets(line,sizeof line,f)){
    line[strcspn(line,"\n")]=0; unit*u=&us[n++];
    char*s=strtok(strdup(line),"\t"); u->dir=s; u->file=strtok(0,"\t");
    while((s=strtok(0,"\t"))) u->a[u->na++]=s;
    char p[8192]; snprintf(p,sizeof p,"%s",u->file); if(p[0]!='/')snprintf(p,sizeof p,"%s/%s",u->dir,u->file);
    u->text=slurp(p,&u->len); first_include(u);
    int o=snprintf(u->key,sizeof u->key,"%s|%s|",u->dir,u->inc); for(int i=0;i<u->na;i++) o+=snprintf(u->key+o,sizeof u->key-o,"%s ",u->a[i]);
  }
  CXIndex idx=clang_createIndex(0,0); double t0=cpu(); int npch=0, shared=0; unsigned ndiag_total=0;
  char **pchkey=calloc(n,sizeof(char*)); char **pchfile=calloc(n,sizeof(char*)); int *users=calloc(n,sizeof(int));
  for(int i=0;i<n;i++){ if(!us[i].inc[0]) continue; for(int j=0;j<n;j++) if(j!=i&&us[j].inc[0]&&!strcmp(us[i].key,us[j].key)) {users[i]++;} }
  for(int i=0;i<n;i++){
    unit*u=&us[i]; if(chdir(u->dir))return 1;
    const char*a[520]; int na=0; for(int k=0;k<u->na;k++)a[na++]=u->a[k];
    struct CXUnsavedFile un; int nun=0; char *blank=0; char pchpath[300];
    char mainpath[8192]; snprintf(mainpath,sizeof mainpath,"%s%s%s",u->file[0]=='/'?"":u->dir,u->file[0]=='/'?"":"/",u->file);
    if(mode==1&&u->inc[0]&&users[i]>0){
      int g=-1; for(int k=0;k<npch;k++) if(!strcmp(pchkey[k],u->key)) g=k;
      if(g<0){ /* build the group's pch: a header in the unit's directory with the include line */
        char hdr[8400]; char *d=strdup(mainpath); *strrchr(d,'/')=0; snprintf(hdr,sizeof hdr,"%s/.ravel-pre-%d.h",d,npch);
        struct CXUnsavedFile h={hdr,u->inc,strlen(u->inc)};
        const char*ha[530];int hn=0; for(int k=0;k<u->na;k++)ha[hn++]=u->a[k]; ha[hn++]="-x"; ha[hn++]="c-header";
        CXTranslationUnit ht=0; clang_parseTranslationUnit2(idx,hdr,ha,hn,&h,1,CXTranslationUnit_KeepGoing|CXTranslationUnit_ForSerialization,&ht);
        snprintf(pchpath,sizeof pchpath,"%s/pre-%d.pch",getenv("PCH_DIR")?getenv("PCH_DIR"):"/tmp",npch);
        if(!ht||clang_saveTranslationUnit(ht,pchpath,0)!=CXSaveError_None){fprintf(stderr,"pch failed\n");}
        if(ht)clang_disposeTranslationUnit(ht);
        pchkey[npch]=u->key; pchfile[npch]=strdup(pchpath); g=npch++;
      }
      a[na++]="-include-pch"; a[na++]=pchfile[g];
      blank=malloc(u->len+1); memcpy(blank,u->text,u->len); memset(blank+u->incoff,' ',u->inclen);
      un.Filename=mainpath; un.Contents=blank; un.Length=u->len; nun=1; shared++;
    }
    CXTranslationUnit tu=0;
    clang_parseTranslationUnit2(idx,mainpath,a,na,nun?&un:0,nun,CXTranslationUnit_KeepGoing,&tu);
    if(tu){ unsigned nd=clang_getNumDiagnostics(tu); unsigned ne=0; for(unsigned k=0;k<nd;k++){CXDiagnostic dg=clang_getDiagnostic(tu,k); if(clang_getDiagnosticSeverity(dg)>=CXDiagnostic_Error){ne++; if(getenv("SHOW")){CXString s=clang_formatDiagnostic(dg,clang_defaultDiagnosticDisplayOptions());fprintf(stderr,"%s\n",clang_getCString(s));clang_disposeString(s);}} clang_disposeDiagnostic(dg);} ndiag_total+=ne; clang_disposeTranslationUnit(tu);} else fprintf(stderr,"fail %s\n",u->file);
    free(blank);
  }
  printf("mode %d: %d units, %d pch, %d parsed with one, %.3f s CPU, %u errors\n",mode,n,npch,shared,cpu()-t0,ndiag_total);
  return 0;
}
